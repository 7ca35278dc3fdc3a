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
  WEBHOOK_EVENT_ACK_WAIT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30_000)
    .describe(
      'How long JetStream waits for a submission event to be acknowledged before sending it again (to any replica): the delay after a webhooks replica dies.',
    ),
});

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;
export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');
