import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// Right to be forgotten (Typeform's DELETE /rtbf/{account_id}/responses):
// every response of the account, in this region, that holds one of these
// email addresses is deleted, with the files, events and deliveries that
// carry it, by a job the call records and answers with (its work follows).
export const eraseRespondents = defineRpc({
  subject: Subjects.responsesRespondentErase,
  request: z.object({
    accountId: z.string().min(1),
    emails: z.array(z.string().min(3).max(320)).min(1).max(100),
  }),
  reply: z.object({ jobId: z.string() }),
});

// The states of an erasure job, in the order it goes through them.
export const ErasureJobState = {
  Queued: 'queued',
  Running: 'running',
  Done: 'done',
  Failed: 'failed',
} as const;
export type ErasureJobState = (typeof ErasureJobState)[keyof typeof ErasureJobState];

// An erasure job as its caller sees it (no addresses: they are the job's
// input, kept only while it runs).
export const erasureJobSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  state: z.enum([
    ErasureJobState.Queued,
    ErasureJobState.Running,
    ErasureJobState.Done,
    ErasureJobState.Failed,
  ]),
  responses_deleted: z.int(),
  files_deleted: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ErasureJob = z.infer<typeof erasureJobSchema>;

// One of the account's erasure jobs in this region (NOT_FOUND otherwise).
export const getErasureJob = defineRpc({
  subject: Subjects.responsesErasureJobGet,
  request: z.object({ accountId: z.string().min(1), jobId: z.string().min(1).max(64) }),
  reply: erasureJobSchema,
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
