import { z } from 'zod';
import { secretHashSchema } from './accounts.contract';
import { defineRpc } from './rpc-contract';
import { apiScopeSchema } from './scopes';
import { Subjects } from './subjects';

// Personal access tokens, managed by their account's owner. The gateway makes
// the token and sends its hash: the token is shown once, to its owner, and
// exists nowhere else.
export const personalTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
});
export type PersonalToken = z.output<typeof personalTokenSchema>;

export const createPersonalToken = defineRpc({
  subject: Subjects.accountsPersonalTokenCreate,
  request: z.object({
    accountId: z.string().min(1),
    name: z.string().trim().min(1).max(100),
    scopes: z.array(apiScopeSchema).min(1),
    expiresAt: z.iso.datetime().optional(),
    tokenHash: secretHashSchema,
  }),
  reply: personalTokenSchema,
});

// Live tokens only: revoked and expired ones are left out.
export const listPersonalTokens = defineRpc({
  subject: Subjects.accountsPersonalTokenList,
  request: z.object({ accountId: z.string().min(1) }),
  reply: z.object({ items: z.array(personalTokenSchema) }),
});

export const revokePersonalToken = defineRpc({
  subject: Subjects.accountsPersonalTokenRevoke,
  request: z.object({ accountId: z.string().min(1), tokenId: z.string().min(1) }),
  reply: z.object({}),
});
