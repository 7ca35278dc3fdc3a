export * from './test-infra';
export * from './free-port';
export * from './test-regions';
export * from './fixtures';
export * from './http';
export * from './nats-server';
export * from './oauth-browser';
export * from './stream-events';
