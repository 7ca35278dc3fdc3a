import { z } from 'zod';
import { Subjects } from './subjects';

// Published once per deleted form, on the JetStream stream of the form's
// region (Streams.forms): every service there that holds data of the form
// purges it. `event_id` is the JetStream message id; a redelivered or
// republished event purges nothing more (a purge is keyed by the form).
export const formDeletedEventSchema = z.object({
  event_id: z.string().min(1).max(100),
  form_id: z.string().min(1).max(100),
  account_id: z.string().min(1).max(100),
  deleted_at: z.iso.datetime(),
});
export type FormDeletedEvent = z.output<typeof formDeletedEventSchema>;

export const formDeletedSubject = Subjects.formsFormDeleted;
