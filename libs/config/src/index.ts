export * from './load-config';
export * from './env-vars';
export * from './region-base-urls';
export * from './home-region';
