import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Right to be forgotten (Typeform's DELETE /rtbf/{account_id}/responses):
// every response of the account, in this region, that holds one of these
// email addresses is deleted, with the events and deliveries that carry it.
export const eraseRespondents = defineRpc({
  subject: Subjects.responsesRespondentErase,
  request: z.object({
    accountId: z.string().min(1),
    emails: z.array(z.string().min(3).max(320)).min(1).max(100),
  }),
  reply: z.object({ deleted: z.int() }),
});

// The webhook deliveries (their stored bodies) of these responses, dropped.
export const forgetDeliveries = defineRpc({
  subject: Subjects.webhooksDeliveryForget,
  request: z.object({
    accountId: z.string().min(1),
    responseTokens: z.array(z.string().min(1).max(64)).min(1).max(1000),
  }),
  reply: z.object({ deleted: z.int() }),
});
