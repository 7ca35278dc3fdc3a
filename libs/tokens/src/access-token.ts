import { createHash, randomBytes } from 'node:crypto';

// Personal access tokens start with a recognisable prefix so that secret
// scanners can spot a leaked one. 32 random bytes make a hash lookup safe
// without a slow KDF: the token cannot be guessed, only stolen.
export const personalAccessTokenPrefix = 'tfp_';

export function generatePersonalAccessToken(): string {
  return `${personalAccessTokenPrefix}${randomBytes(32).toString('base64url')}`;
}

// What is stored and compared: never the token itself.
export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
