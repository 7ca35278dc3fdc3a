import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { regionSchema } from './region';
import { Subjects } from './subjects';

// Who is calling: the account behind a bearer token, for the gateway's guard.
// The gateway sends the token's hash, never the token itself.
export const verifyAccessToken = defineRpc({
  subject: Subjects.accountsTokenVerify,
  request: z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) }),
  reply: z.object({
    accountId: z.string(),
    region: regionSchema,
    scopes: z.array(z.string()),
  }),
});

export type AccessTokenPrincipal = z.output<typeof verifyAccessToken.reply>;
