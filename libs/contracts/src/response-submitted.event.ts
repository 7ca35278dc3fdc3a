import { z } from 'zod';
import { Subjects } from './subjects';

// Published once per accepted submission, on the region's JetStream stream.
// The body is Typeform's webhook payload, so a delivery forwards it as it is;
// `event_id` is stable across redeliveries, for receivers to de-duplicate.
// A partial response (progress saved before the final submit) travels the
// same subject and stream as `form_response_partial`: one ordered pipeline,
// one durable consumer, and webhooks pick the kinds they subscribed to.
export const responseSubmittedEventSchema = z.object({
  event_id: z.string(),
  event_type: z.enum(['form_response', 'form_response_partial']),
  form_response: z.looseObject({
    form_id: z.string(),
    token: z.string(),
    landed_at: z.string(),
    submitted_at: z.string(),
  }),
  // Routing facts, not part of what is delivered.
  account_id: z.string(),
});
export type ResponseSubmittedEvent = z.output<typeof responseSubmittedEventSchema>;

export const responseSubmittedSubject = Subjects.responsesResponseSubmitted;
