// The groups of settings that more than one app reads, or that a library takes
// as its typed parameter (docs/decisions/code-structure.md, "Where a setting
// goes"). A setting one app alone reads is in that app's file of libs/app-config.
export * from './region.vars';
export * from './nats.vars';
export * from './redis.vars';
export * from './ops.vars';
export * from './log.vars';
export * from './shutdown.vars';
export * from './database.vars';
export * from './http-server.vars';
export * from './http-edge.vars';
export * from './upload-size.vars';
export * from './media-forwarding.vars';
export * from './object-storage.vars';
export * from './webhook-security.vars';
export * from './retention.vars';
export * from './responses-stream.vars';
export * from './form-purge.vars';
