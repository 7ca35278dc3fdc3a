import { createHash } from 'node:crypto';

// PKCE (RFC 7636), S256 only: `plain` protects nothing once the challenge is seen.
// A verifier is 43 to 128 unreserved characters; a challenge is the base64url
// sha256 of the verifier, always 43 characters.
const verifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/;
const challengePattern = /^[A-Za-z0-9\-_]{43}$/;

export function isCodeVerifier(value: string): boolean {
  return verifierPattern.test(value);
}

export function isCodeChallenge(value: string): boolean {
  return challengePattern.test(value);
}

export function codeChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
