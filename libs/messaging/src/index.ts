export * from './nats-connection';
export * from './rpc-client';
export * from './rpc-error.filter';
export * from './contract.pipe';
export * from './nats-microservice';
export * from './microservice-status';
export * from './redis-connection';
export * from './run-nats-service';
