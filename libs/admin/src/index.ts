export * from './provisioning';
export * from './oauth-applications';
export * from './webhook-secrets';
