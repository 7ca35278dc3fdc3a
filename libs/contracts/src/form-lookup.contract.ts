import { z } from 'zod';
import { regionSchema } from './region';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Internal lookups of a form by id, not scoped to a caller: respondents submit
// to public forms without a token. They say whose form it is and where its
// responses live, so the gateway can route a submission to the right region.
const formLocation = {
  formId: z.string(),
  accountId: z.string(),
  region: regionSchema,
  isPublic: z.boolean(),
};

export const locateForm = defineRpc({
  subject: Subjects.formsFormLocate,
  request: z.object({ formId: z.string().min(1) }),
  reply: z.object(formLocation),
});
export type FormLocation = z.output<typeof locateForm.reply>;

// The definition a submission is checked and evaluated against (the normalised
// form definition of libs/form-definition), with the form's location.
export const getFormSnapshot = defineRpc({
  subject: Subjects.formsFormSnapshot,
  request: z.object({ formId: z.string().min(1) }),
  reply: z.object({ ...formLocation, definition: z.unknown() }),
});
export type FormSnapshot = z.output<typeof getFormSnapshot.reply>;
