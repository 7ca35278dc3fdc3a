import { z } from 'zod';
import { regionSchema } from './region';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';
import { themeResourceSchema } from './themes.contract';

// What the respondent's page of a form needs, in one request: the form's
// definition, where its responses live, whether it is public, and its theme
// (resolved, the built-in default when the form names none of its account's).
export const getFormPage = defineRpc({
  subject: Subjects.formsFormPage,
  request: z.object({ formId: z.string().min(1).max(64) }),
  reply: z.object({
    formId: z.string(),
    accountId: z.string(),
    region: regionSchema,
    isPublic: z.boolean(),
    definition: z.unknown(),
    theme: themeResourceSchema,
  }),
});
export type FormPage = z.output<typeof getFormPage.reply>;

// How many responses a form has: the welcome screen shows it when the form's
// settings ask (show_number_of_submissions). Served in the form's region only.
export const countResponses = defineRpc({
  subject: Subjects.responsesResponseCount,
  request: z.object({ formId: z.string().min(1).max(64) }),
  reply: z.object({ count: z.int().min(0) }),
});
