import type { z } from 'zod';
import type { AppName } from './app-names';
import { dispatcherConfigSchema } from './dispatcher.config';
import { globalConfigSchema } from './global.config';
import { gatewayConfigSchema } from './gateway.config';
import { mediaConfigSchema } from './media.config';
import { responsesConfigSchema } from './responses.config';
import { webhooksConfigSchema } from './webhooks.config';

// Each app's schema by app name: the configuration reference, `npm start` and
// the deploy checks read what every app accepts from here.
export const appConfigSchemas: Record<AppName, z.ZodObject> = {
  gateway: gatewayConfigSchema,
  global: globalConfigSchema,
  responses: responsesConfigSchema,
  webhooks: webhooksConfigSchema,
  dispatcher: dispatcherConfigSchema,
  media: mediaConfigSchema,
};
