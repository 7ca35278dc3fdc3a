import { z } from 'zod';
import { accountCredentialsSchema, secretHashSchema } from './accounts.contract';
import { defineRpc } from './rpc-contract';
import { scopeSchema } from './scopes';
import { Subjects } from './subjects';

// OAuth 2.0 (RFC 6749) authorization code flow with PKCE (RFC 7636), refresh
// tokens and revocation (RFC 7009). The gateway speaks HTTP and makes every
// secret (client secret, code, tokens); the global service keeps their hashes.

// Where codes may be sent: https, or http on the loopback interface for
// development and native apps (RFC 8252), never with a fragment (RFC 6749 3.1.2).
export const redirectUriSchema = z
  .string()
  .max(2000)
  .refine(isAcceptableRedirectUri, 'must be an https URL (or http on localhost) without a fragment');

function isAcceptableRedirectUri(value: string): boolean {
  // Checks run on every input, valid URL or not: parse without throwing.
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return !value.includes('#') && (url.protocol === 'https:' || (url.protocol === 'http:' && loopback));
}

export const oauthApplicationSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type OAuthApplication = z.output<typeof oauthApplicationSchema>;

export const createOAuthApplication = defineRpc({
  subject: Subjects.oauthApplicationCreate,
  request: z.object({
    accountId: z.string().min(1),
    name: z.string().trim().min(1).max(100),
    redirectUris: z.array(redirectUriSchema).min(1).max(10),
    clientId: z.string().regex(/^[0-9a-f]{32}$/),
    clientSecretHash: secretHashSchema,
  }),
  reply: oauthApplicationSchema,
});

export const listOAuthApplications = defineRpc({
  subject: Subjects.oauthApplicationList,
  request: z.object({ accountId: z.string().min(1) }),
  reply: z.object({ items: z.array(oauthApplicationSchema) }),
});

// Deleting an application revokes every grant and token it ever received.
export const deleteOAuthApplication = defineRpc({
  subject: Subjects.oauthApplicationDelete,
  request: z.object({ accountId: z.string().min(1), clientId: z.string().min(1) }),
  reply: z.object({}),
});

const clientIdSchema = z.string().min(1).max(200);

// Before the login and consent page is shown: is this a known client, and is
// the redirect URI one it registered? Errors here must not redirect anywhere.
export const validateAuthorization = defineRpc({
  subject: Subjects.oauthAuthorizationValidate,
  request: z.object({ clientId: clientIdSchema, redirectUri: z.string().min(1).max(2000) }),
  // A public client (no secret) must send a PKCE challenge and gets no refresh token.
  reply: z.object({ applicationName: z.string(), publicClient: z.boolean() }),
});

// The account owner signed in and consented: store the code (by its hash)
// bound to the client, the redirect URI, the scopes and the PKCE challenge.
export const approveAuthorization = defineRpc({
  subject: Subjects.oauthAuthorizationApprove,
  request: accountCredentialsSchema.extend({
    clientId: clientIdSchema,
    redirectUri: z.string().min(1).max(2000),
    scopes: z.array(scopeSchema).min(1),
    codeChallenge: z.string().optional(),
    codeHash: secretHashSchema,
  }),
  reply: z.object({}),
});

// A confidential client sends its secret's hash; a public client (the console) none.
const clientAuthentication = { clientId: clientIdSchema, clientSecretHash: secretHashSchema.optional() };

// The token endpoint's two grants. The new tokens' hashes come with the request;
// the refresh token is kept only when the grant includes `offline`.
export const issueOAuthToken = defineRpc({
  subject: Subjects.oauthTokenIssue,
  request: z.discriminatedUnion('grantType', [
    z.object({
      grantType: z.literal('authorization_code'),
      ...clientAuthentication,
      codeHash: secretHashSchema,
      redirectUri: z.string().min(1).max(2000),
      // base64url(sha256(code_verifier)), computed by the gateway.
      codeVerifierChallenge: z.string().optional(),
      newAccessTokenHash: secretHashSchema,
      newRefreshTokenHash: secretHashSchema,
    }),
    z.object({
      grantType: z.literal('refresh_token'),
      ...clientAuthentication,
      refreshTokenHash: secretHashSchema,
      // Narrows the new access token; never beyond what was granted.
      scopes: z.array(scopeSchema).min(1).optional(),
      newAccessTokenHash: secretHashSchema,
      newRefreshTokenHash: secretHashSchema,
    }),
  ]),
  reply: z.object({
    scopes: z.array(z.string()),
    expiresIn: z.number().int().positive(),
    refreshTokenIssued: z.boolean(),
  }),
});

// RFC 7009: revoking an access token revokes it; revoking a refresh token
// revokes its whole grant. Unknown tokens are not an error.
export const revokeOAuthToken = defineRpc({
  subject: Subjects.oauthTokenRevoke,
  request: z.object({ ...clientAuthentication, tokenHash: secretHashSchema }),
  reply: z.object({}),
});

// The applications an account has let in: one grant per consent, live until
// revoked (by the owner, or because a code or refresh token was replayed).
export const oauthGrantSchema = z.object({
  grantId: z.string(),
  clientId: z.string(),
  applicationName: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type OAuthGrant = z.output<typeof oauthGrantSchema>;

export const listOAuthGrants = defineRpc({
  subject: Subjects.oauthGrantList,
  request: z.object({ accountId: z.string().min(1) }),
  reply: z.object({ items: z.array(oauthGrantSchema) }),
});

// Revokes the grant and with it every access and refresh token issued under it.
export const revokeOAuthGrant = defineRpc({
  subject: Subjects.oauthGrantRevoke,
  request: z.object({ accountId: z.string().min(1), grantId: z.string().min(1).max(64) }),
  reply: z.object({}),
});
