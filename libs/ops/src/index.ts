export * from './logger';
export * from './health-check';
export * from './ops-server';
export * from './graceful-shutdown';
export * from './run-main';
