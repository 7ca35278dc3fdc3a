import { z } from 'zod';

// Text that PostgreSQL (text and jsonb) and strict JSON parsers cannot store:
// a NUL character, or half of a UTF-16 surrogate pair. JavaScript strings hold
// both happily, so they must be refused at the edge, or they are accepted and
// break whatever reads them back later. Linear in the length of the text.
export function textProblem(text: string): string | undefined {
  if (text.includes('\0')) return 'contains a NUL character (U+0000)';
  if (hasLoneSurrogate(text)) return 'contains an unpaired UTF-16 surrogate';
  return undefined;
}

// String.prototype.isWellFormed() without the ES2024 library types: a high
// surrogate must be followed by a low one, and a low one preceded by a high one.
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return true; // a low surrogate with no high one before it
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
    i++;
  }
  return false;
}

// A string the API accepts: bounded (the bound shows in the API document) and storable.
export function boundedText(max: number, params?: Parameters<typeof z.string>[0]): z.ZodString {
  return z
    .string(params)
    .max(max)
    .check((ctx) => {
      const problem = textProblem(ctx.value);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
    });
}
