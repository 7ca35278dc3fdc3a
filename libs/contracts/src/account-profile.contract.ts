import { z } from 'zod';
import { regionSchema } from './region';
import { defineRpc } from './rpc-contract';
import { Subjects } from './subjects';

// GET /me: who the token belongs to, and where its responses live.
export const accountProfileSchema = z.object({
  user_id: z.string(),
  alias: z.string(),
  email: z.string(),
  language: z.string(),
  region: regionSchema,
  base_url: z.string(),
});
export type AccountProfile = z.output<typeof accountProfileSchema>;

export const getAccountProfile = defineRpc({
  subject: Subjects.accountsProfileGet,
  request: z.object({ accountId: z.string().min(1) }),
  reply: accountProfileSchema,
});
