import {
  databasePoolVars,
  databaseUrl,
  formPurgeVars,
  responsesStreamVars,
  logVars,
  milliseconds,
  natsVars,
  opsVars,
  regionVars,
  retentionVars,
  shutdownVars,
} from '@formline/config';
import { z } from 'zod';

export const responsesConfigSchema = z.object({
  ...regionVars,
  ...natsVars,
  ...opsVars,
  ...logVars,
  ...shutdownVars,
  ...retentionVars,
  ...formPurgeVars,
  ...responsesStreamVars,
  ...databasePoolVars,
  RESPONSES_DATABASE_URL: databaseUrl("This region's responses database; never another region's."),
  OUTBOX_POLL_INTERVAL_MS: milliseconds(
    1000,
    'How often the outbox relay looks for events not yet published (those its writer did not publish at once: see OUTBOX_PUBLISH_TIMEOUT_MS).',
  ),
  OUTBOX_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .describe(
      'Events relayed per transaction, published to JetStream concurrently, at most 8 MB of them at a time.',
    ),
  OUTBOX_MAX_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .describe(
      'Failed publishes of one event (while others get through) before the relay sets it aside (dead_lettered_at), logs it and counts it in formline_outbox_dead_letters. NATS being away, a timeout, or a refusal while the stream itself does not answer (JetStream still starting) counts against no event.',
    ),
  OUTBOX_RETENTION_MS: milliseconds(
    86_400_000,
    'How long published outbox rows are kept before the retention job deletes them (default 1 day); rows set aside are kept.',
  ),
  FILE_UPLOAD_RETENTION_MS: milliseconds(
    86_400_000,
    "How long a respondent's upload may wait for a response that answers with it (default 1 day); after that, the retention job deletes it and has the media app delete its bytes. An upload a response holds is kept with the response.",
  ),
  RESPONSES_FILTERED_COUNT_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(1000)
    .describe(
      "The most responses a filtered listing counts for its total_items (then page_count follows it): a filter's matches are counted up to this many, so a page's cost never grows with the form. An unfiltered listing's total is exact at any size (read from the form's running tallies).",
    ),
  ERASURE_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(500)
    .describe(
      "Responses a right-to-be-forgotten job examines per batch (deleting those that hold an address, with their files, events and deliveries); it pauses ERASURE_PAUSE_MS between batches, so the region's other work never waits long behind it.",
    ),
  ERASURE_PAUSE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(50)
    .describe("The right-to-be-forgotten job's pause between two batches."),
  ERASURE_JOB_RETENTION_MS: milliseconds(
    2_592_000_000,
    'How long an ended right-to-be-forgotten job (its state and counts, never the addresses, which go when it ends) is kept for GET /rtbf/{account_id}/jobs/{job_id} before the retention job deletes it (default 30 days).',
  ),
  OUTBOX_PUBLISH_TIMEOUT_MS: milliseconds(
    2000,
    'How long the relay waits for JetStream to acknowledge an event. A new event is left to the process that wrote it (published at once) for this long plus DATABASE_POOL_TIMEOUT_MS; only then may the poller relay it.',
  ),
});

export type ResponsesConfig = z.infer<typeof responsesConfigSchema>;

// The token the responses app injects its parsed config by.
export const RESPONSES_CONFIG = Symbol('RESPONSES_CONFIG');
