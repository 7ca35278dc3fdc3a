export * from './error-code';
export * from './domain-error';
export * from './validation-details';
