export * from './provisioning';
export * from './oauth-applications';
