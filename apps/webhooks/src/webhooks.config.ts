// The webhooks app's configuration is parsed once at boot from webhooksConfigSchema
// (libs/app-config) and injected by this token.
export type { WebhooksConfig } from '@formline/app-config';
export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');
