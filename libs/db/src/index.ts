export * from './global.database';
export * from './responses.database';
export * from './webhooks.database';
export * from './retention.pruner';
export * from './database-pool';
export * from './json-text-pattern';
export * from './statement-batch';
