export * from './error-code';
export * from './domain-error';
export * from './validation-details';
export * from './error-body.schema';
export * from './unavailable-dependency';
export * from './concurrent-change';
export * from './cap-reached';
