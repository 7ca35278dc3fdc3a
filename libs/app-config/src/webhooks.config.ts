import {
  formPurgeVars,
  logVars,
  natsVars,
  opsVars,
  redisVars,
  regionVars,
  responsesStreamVars,
  requireWebhookSecretKey,
  retentionVars,
  shutdownVars,
  webhookSecurityVars,
  webhooksDatabaseVars,
} from '@formline/config';
import { z } from 'zod';

export const webhooksConfigSchema = z
  .object({
    ...regionVars,
    ...natsVars,
    ...redisVars,
    ...opsVars,
    ...logVars,
    ...shutdownVars,
    ...webhookSecurityVars,
    ...retentionVars,
    ...formPurgeVars,
    ...responsesStreamVars,
    WEBHOOKS_DATABASE_URL: webhooksDatabaseVars.WEBHOOKS_DATABASE_URL.describe(
      "This region's webhooks database (webhooks and delivery attempts).",
    ),
    WEBHOOK_EVENT_ACK_WAIT_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(5_000)
      .describe(
        'How long JetStream waits for a submission event to be acknowledged before sending it again (to any replica): the longest delay of events in flight when a webhooks replica dies. The consumer reports progress on events it is still planning, so a shorter wait re-sends only what a dead replica held.',
      ),
    WEBHOOK_EVENT_BATCH_SIZE: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(100)
      .describe(
        'Submission events planned together (and at most 8 MB of them): one read of their webhooks, one insert of their deliveries (more when their bodies pass 4 M characters), one enqueue of their jobs.',
      ),
    WEBHOOKS_PER_FORM: z.coerce
      .number()
      .int()
      .min(0)
      .default(20)
      .describe(
        'Webhooks one form may hold; creating one more answers 409 CONFLICT until one is deleted (changing an existing one is always allowed). Each submission is delivered once per webhook, so their number bounds what one submission makes this region send. 0 turns the cap off.',
      ),
    DELIVERY_RETENTION_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(2_592_000_000)
      .describe(
        'How long finished deliveries (succeeded or failed) and their attempts are kept in the delivery log before the retention job deletes them (default 30 days). Pending ones are kept.',
      ),
  })
  .superRefine(requireWebhookSecretKey);

export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;

// The token the webhooks app injects its parsed config by.
export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');
