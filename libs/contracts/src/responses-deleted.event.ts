import { z } from 'zod';
import { Subjects } from './subjects';

// Published when responses are deleted, by their form's owner (DELETE
// /forms/{id}/responses) or by a right-to-be-forgotten job, on the region's
// RESPONSES stream, from the responses service's outbox in the transaction
// that deleted them: the webhooks service drops their deliveries and attempts
// (with their queued jobs), and plans none for them afterwards. One event per
// form and deletion, at most 1000 tokens (one bulk delete's bound).
// `event_id` is the JetStream message id; handling one twice deletes nothing more.
export const responsesDeletedEventSchema = z.object({
  event_id: z.string().min(1).max(100),
  account_id: z.string().min(1).max(100),
  form_id: z.string().min(1).max(100),
  response_tokens: z.array(z.string().min(1).max(64)).min(1).max(1000),
  deleted_at: z.iso.datetime(),
});
export type ResponsesDeletedEvent = z.output<typeof responsesDeletedEventSchema>;

export const responsesDeletedSubject = Subjects.responsesResponsesDeleted;
