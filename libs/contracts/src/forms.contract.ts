import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// The form resource as a client editing the form sees it (SPEC 2.1). Its full
// model and validation live with the form definition; over the wire it is JSON.
export const formResourceSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  _links: z.object({ display: z.string(), responses: z.string() }),
});
export type FormResource = z.output<typeof formResourceSchema>;

export const getForm = defineRpc({
  subject: Subjects.formsFormGet,
  request: z.object({ accountId: z.string().min(1), formId: z.string().min(1) }),
  reply: formResourceSchema,
});
