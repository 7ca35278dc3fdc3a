import { hash, randomBytes } from 'node:crypto';

// Every secret we hand out starts with a recognisable prefix so that secret
// scanners can spot a leaked one, and so that a glance says what it is.
// 32 random bytes make a hash lookup safe without a slow KDF: such a value
// cannot be guessed, only stolen.
export const tokenPrefixes = {
  personal: 'tfp_',
  oauthAccess: 'tfo_',
  oauthRefresh: 'tfr_',
  clientSecret: 'tfs_',
} as const;
export type TokenKind = keyof typeof tokenPrefixes;

export function generateToken(kind: TokenKind): string {
  return `${tokenPrefixes[kind]}${randomBytes(32).toString('base64url')}`;
}

export function generatePersonalAccessToken(): string {
  return generateToken('personal');
}

// Bearer tokens the API accepts: personal access tokens and OAuth access tokens.
// Anything else cannot be a token of ours, and is refused without a lookup.
export function isBearerTokenShape(token: string): boolean {
  return (
    (token.startsWith(tokenPrefixes.personal) || token.startsWith(tokenPrefixes.oauthAccess)) &&
    token.length <= 128
  );
}

// What is stored and compared: never the token itself. Also used for OAuth
// codes, refresh tokens and client secrets, all high-entropy random values.
export function hashAccessToken(token: string): string {
  // One-shot: no Hash object per request on the auth path.
  return hash('sha256', token, 'hex');
}

// Authorization codes travel in a redirect URL; no prefix, they live minutes.
export function generateAuthorizationCode(): string {
  return randomBytes(32).toString('base64url');
}

// Public, but unguessable so that client ids cannot be enumerated.
export function generateClientId(): string {
  return randomBytes(16).toString('hex');
}
