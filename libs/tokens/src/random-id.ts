import { randomBytes } from 'node:crypto';

// Typeform-style record ids: short, URL-safe, unguessable.
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomId(length = 16): string {
  // 248 is the largest multiple of 62 below 256: rejecting above it keeps every character equally likely.
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out.push(alphabet[byte % alphabet.length]);
    }
  }
  return out.join('');
}
