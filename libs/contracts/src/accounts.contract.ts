import { z } from 'zod';
import { defineRpc } from './rpc-contract';
import { regionSchema } from './region';
import { Subjects } from './subjects';

// A sha256 in hex: what crosses NATS instead of a token or secret. The gateway
// hashes every token, code and client secret itself; services never see them.
export const secretHashSchema = z.string().regex(/^[0-9a-f]{64}$/);

// Who is calling: the account behind a bearer token (a personal access token
// or an OAuth access token), for the gateway's guard. Unknown, expired and
// revoked tokens are errors with distinct codes.
export const verifyAccessToken = defineRpc({
  subject: Subjects.accountsTokenVerify,
  request: z.object({ tokenHash: secretHashSchema }),
  reply: z.object({
    accountId: z.string(),
    region: regionSchema,
    scopes: z.array(z.string()),
    // When the token stops working by itself (ISO 8601), so a cached check ends then too.
    expiresAt: z.string().nullable().optional(),
  }),
});

export type AccessTokenPrincipal = z.output<typeof verifyAccessToken.reply>;

// The account owner in person: email and password (HTTP Basic on the routes
// that manage tokens and applications, the login form of the OAuth page).
// The password is the one secret that must travel: it is checked against its
// scrypt hash by the service that owns accounts, and never logged.
// Emails are compared trimmed and lower-cased, as they are stored.
export const emailSchema = z.string().trim().toLowerCase().min(3).max(320);

export const accountCredentialsSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(1024),
});

export const verifyAccountCredentials = defineRpc({
  subject: Subjects.accountsCredentialsVerify,
  request: accountCredentialsSchema,
  reply: z.object({ accountId: z.string(), region: regionSchema }),
});

export type AccountOwner = z.output<typeof verifyAccountCredentials.reply>;
