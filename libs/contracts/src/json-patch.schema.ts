import { boundedText, inputLimits, isPrototypeKey } from '@formline/input';
import { z } from 'zod';

// JSON Patch (RFC 6902) as Typeform's PATCH endpoints take it: a list of
// `add`, `remove` and `replace` operations. Which paths each resource allows
// is the global service's to check. Declared here because it is the body of
// the HTTP API too: the gateway documents it with this very schema.
// A pointer never names a prototype (`__proto__`, `constructor`, `prototype`)
// at any depth, and a patch holds a bounded number of operations.
export const jsonPointerSchema = boundedText(inputLimits.url)
  .regex(/^\//, 'a JSON pointer starting with /')
  .refine((pointer) => !pointerSegments(pointer).some(isPrototypeKey), {
    error: 'a JSON pointer may not name __proto__, constructor or prototype',
  });

export const patchOperationsSchema = z
  .array(
    z.strictObject({
      op: z.enum(['add', 'remove', 'replace']),
      path: jsonPointerSchema,
      value: z.unknown().optional(),
    }),
  )
  .min(1, 'at least one operation')
  .max(inputLimits.patchOperations);
export type PatchOperation = z.infer<typeof patchOperationsSchema>[number];

// The unescaped segments of a JSON pointer (RFC 6901: ~1 is /, ~0 is ~).
export function pointerSegments(pointer: string): string[] {
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}
