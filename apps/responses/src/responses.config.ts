// The responses app's configuration is parsed once at boot from responsesConfigSchema
// (libs/app-config) and injected by this token.
export type { ResponsesConfig } from '@formline/app-config';
export const RESPONSES_CONFIG = Symbol('RESPONSES_CONFIG');
