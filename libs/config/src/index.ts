export * from './load-config';
export * from './setting.builders';
export * from './groups';
export * from './region-base-urls';
export * from './home-region';
