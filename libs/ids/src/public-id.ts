import { randomBytes } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Typeform-style ids (`lT4Z3j`): short, URL-safe, random. 62^8 is far beyond
// guessing for form links; resources are scoped by account regardless.
export function newPublicId(length = 8): string {
  // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out.push(alphabet[byte % 62]);
    }
  }
  return out.join('');
}
