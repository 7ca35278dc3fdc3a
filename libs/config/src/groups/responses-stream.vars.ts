import { z } from 'zod';

// The region's RESPONSES stream, which the responses service publishes to and
// the webhooks service reads: both bring it to this setting at start-up.
export const responsesStreamVars = {
  // At least the stream's de-duplication window (10 minutes), as JetStream requires.
  RESPONSES_STREAM_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(600_000)
    .default(7 * 24 * 3_600_000)
    .describe(
      "How long the region's RESPONSES stream keeps a submission event (the response as webhooks receive it). The webhooks service reads each within seconds; the age bounds how long a respondent's answers stay there after their response, form or account is deleted, and how long the webhooks service may be away without losing deliveries.",
    ),
};
