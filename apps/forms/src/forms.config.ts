// The forms app's configuration is parsed once at boot from formsConfigSchema
// (libs/app-config) and injected by this token.
export type { FormsConfig } from '@formline/app-config';
export const FORMS_CONFIG = Symbol('FORMS_CONFIG');
