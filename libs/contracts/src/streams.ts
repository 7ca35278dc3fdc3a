import { Subjects } from './subjects';

// The durable JetStream streams of a region. Their subjects are exact event
// subjects, never a wildcard that could capture request/reply traffic.
export const Streams = {
  responses: {
    name: 'RESPONSES',
    subjects: [Subjects.responsesResponseSubmitted],
    // JetStream drops a second publish with the same message id inside this
    // window: a relay that crashed between publish and bookkeeping re-publishes
    // harmlessly.
    duplicateWindowMs: 10 * 60 * 1000,
    // Its durable consumers, by the service that reads them.
    consumers: { webhooks: 'webhooks-submissions' },
  },
} as const;
