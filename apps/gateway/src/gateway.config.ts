// The gateway app's configuration is parsed once at boot from gatewayConfigSchema
// (libs/app-config) and injected by this token.
export type { GatewayConfig } from '@formline/app-config';
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
