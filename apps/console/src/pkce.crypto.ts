// PKCE (RFC 7636) in the browser, with the Web Crypto API: a verifier of 32
// random bytes (43 characters of base64url, the shortest RFC 7636 allows,
// with 256 bits of entropy) and its S256 challenge. `plain` is never used:
// the server refuses it.
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}

/** A fresh random value of `length` bytes, as base64url: verifiers and states. */
export function randomUrlSafe(length = 32, source: Pick<Crypto, 'getRandomValues'> = crypto): string {
  const bytes = new Uint8Array(length);
  source.getRandomValues(bytes);
  return base64url(bytes);
}

/** base64url(SHA-256(verifier)), the code_challenge of the S256 method. */
export async function challengeOf(verifier: string, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}
