import { z } from 'zod';

// JSON Patch (RFC 6902) as Typeform's PATCH endpoints take it: a list of
// `add`, `remove` and `replace` operations. Which paths each resource allows
// is the forms service's to check. Declared here because it is the body of
// the HTTP API too: the gateway documents it with this very schema.
export const patchOperationsSchema = z
  .array(
    z.strictObject({
      op: z.enum(['add', 'remove', 'replace']),
      path: z.string().regex(/^\//, 'a JSON pointer starting with /'),
      value: z.unknown().optional(),
    }),
  )
  .min(1, 'at least one operation');
export type PatchOperation = z.infer<typeof patchOperationsSchema>[number];
