import {
  logVars,
  milliseconds,
  opsVars,
  redisVars,
  regionVars,
  requireWebhookSecretKey,
  shutdownVars,
  webhookSecurityVars,
  webhooksDatabaseVars,
} from '@formline/config';
import { z } from 'zod';

// Svix's schedule: after the first attempt fails, wait 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h, 10 h; the webhook is disabled when the last one fails too.
const defaultRetrySchedule = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const dispatcherConfigSchema = z
  .object({
    ...regionVars,
    ...redisVars,
    ...opsVars,
    ...logVars,
    ...shutdownVars,
    ...webhookSecurityVars,
    WEBHOOKS_DATABASE_URL: webhooksDatabaseVars.WEBHOOKS_DATABASE_URL.describe(
      "This region's webhooks database, where every delivery attempt is recorded.",
    ),
    WEBHOOK_TIMEOUT_MS: milliseconds(
      30_000,
      'How long a delivery may take, from the look-up of the receiver host to its 2xx answer.',
    ),
    WEBHOOK_RETRY_SCHEDULE_MS: z
      .string()
      .default(defaultRetrySchedule.join(','))
      .transform((value) => value.split(',').map((step) => Number(step.trim())))
      .refine((steps) => steps.length > 0 && steps.every((step) => Number.isInteger(step) && step > 0), {
        message: 'expected comma-separated positive integers (milliseconds)',
      })
      .describe(
        'Waits between delivery attempts, in ms, comma separated; after the last one fails the webhook is disabled. Default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.',
      ),
    WEBHOOK_RETRY_JITTER: z.coerce
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .describe(
        'Each wait is randomly stretched or shrunk by up to this fraction, so retries do not arrive in waves.',
      ),
    WEBHOOK_RETRY_AFTER_MAX_MS: milliseconds(
      36_000_000,
      'Longest wait honoured from a Retry-After header (429, 503).',
    ),
    DISPATCHER_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(500)
      .default(20)
      .describe('Deliveries one dispatcher sends at once.'),
    DISPATCHER_LOCK_MS: milliseconds(
      10_000,
      'How long a delivery job stays claimed without a heartbeat (renewed every half of it while the job runs, however slow the receiver); a job of a dispatcher that died is taken over within about 1.5 times this. Shorter: quicker takeover, but a dispatcher whose event loop stalls that long may see its job sent twice.',
    ),
  })
  .superRefine(requireWebhookSecretKey);

export type DispatcherConfig = z.infer<typeof dispatcherConfigSchema>;

// The token the dispatcher app injects its parsed config by.
export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
