export * from './global.database';
export * from './responses.database';
export * from './webhooks.database';
export * from './database-pool';
