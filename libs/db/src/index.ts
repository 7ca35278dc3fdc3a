export * from './global.database';
export * from './responses.database';
export * from './webhooks.database';
export * from './database-pool';
export * from './json-text-pattern';
export * from './statement-batch';
export * from './slots';
export * from './pool-share';
// Background work: the runners every in-process job runs on.
export * from './background/background.loop';
export * from './background/background-rounds';
export * from './background/retention.pruner';
export * from './background/leased-job.runner';
export * from './background/form-purge.runner';
export * from './background/form-purge.table';
