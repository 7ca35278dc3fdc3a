// The dispatcher app's configuration is parsed once at boot from dispatcherConfigSchema
// (libs/app-config) and injected by this token.
export type { DispatcherConfig } from '@formline/app-config';
export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
