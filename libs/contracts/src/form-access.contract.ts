import { z } from 'zod';
import { regionSchema } from './region';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// What a caller may want to do with a form. A form in a workspace shared with
// the caller's account is reached through the caller's role there; the forms
// service decides (apps/global/src/form-access.ts), everyone else asks it.
export const formNeeds = [
  'read',
  'write',
  'delete',
  'move',
  'responses-read',
  'responses-delete',
  'webhooks',
] as const;
export type FormNeed = (typeof formNeeds)[number];

// May this account do this with this form? Answers with the form's owning
// account and its region (whose responses the caller then reaches), or fails:
// FORM_NOT_FOUND when the caller has no access at all (as for a missing form),
// FORBIDDEN when its role in the shared workspace does not allow the need.
export const authorizeForm = defineRpc({
  subject: Subjects.formsFormAuthorize,
  request: z.object({
    accountId: z.string().min(1),
    formId: z.string().min(1),
    need: z.enum(formNeeds),
  }),
  reply: z.object({ accountId: z.string(), region: regionSchema }),
});
export type FormAuthorization = z.output<typeof authorizeForm.reply>;
