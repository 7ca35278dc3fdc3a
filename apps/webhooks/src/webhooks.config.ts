import {
  databaseUrl,
  logVars,
  natsVars,
  opsVars,
  redisVars,
  regionVars,
  shutdownVars,
  webhookSecurityVars,
} from '@formline/config';
import { z } from 'zod';

export const webhooksConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...redisVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  ...webhookSecurityVars,
  WEBHOOKS_DATABASE_URL: databaseUrl("This region's webhooks database (webhooks and delivery attempts)."),
});

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;
export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');
