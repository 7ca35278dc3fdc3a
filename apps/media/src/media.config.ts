// The media app's configuration is parsed once at boot from mediaConfigSchema
// (libs/app-config) and injected by this token.
export type { MediaConfig } from '@formline/app-config';
export const MEDIA_CONFIG = Symbol('MEDIA_CONFIG');
