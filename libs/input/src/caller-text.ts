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

// String.prototype.isWellFormed() (native since Node 20, without the ES2024
// library types): a high surrogate must be followed by a low one, and a low
// one preceded by a high one. Every header, path parameter and answer passes here.
function hasLoneSurrogate(text: string): boolean {
  return !(text as unknown as { isWellFormed(): boolean }).isWellFormed();
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
