import { Subjects } from './subjects';

// The durable JetStream streams of a region. Their subjects are exact event
// subjects, never a wildcard that could capture request/reply traffic.
export const Streams = {
  responses: {
    name: 'RESPONSES',
    subjects: [Subjects.responsesResponseSubmitted, Subjects.responsesResponsesDeleted],
    // JetStream drops a second publish with the same message id inside this
    // window: a relay that crashed between publish and bookkeeping re-publishes
    // harmlessly.
    duplicateWindowMs: 10 * 60 * 1000,
    // Its durable consumers, by the service that reads them.
    consumers: { webhooks: 'webhooks-submissions', webhooksDeletions: 'webhooks-response-deletions' },
  },
  // Forms deleted whose data lives in this region, relayed from the global
  // database's form_deletions by this region's global service. Each service
  // that holds a form's data reads it with its own durable consumer and
  // purges what it holds.
  forms: {
    name: 'FORMS',
    subjects: [Subjects.formsFormDeleted],
    duplicateWindowMs: 10 * 60 * 1000,
    // A deletion is kept until both consumers have it, then dropped: the
    // stream holds no trace of a form once its purges are under way.
    retention: 'interest',
    consumers: { responses: 'responses-form-deletions', webhooks: 'webhooks-form-deletions' },
    // Taking a deletion is one insert (the purge itself is a job): a consumer
    // that holds one this long has died, and JetStream sends it again.
    consumerAckWaitMs: 30_000,
  },
} as const;
