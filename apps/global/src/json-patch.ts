import { patchOperationsSchema, pointerSegments, type PatchOperation } from '@formline/contracts';
import { DomainError, ErrorCode, detailsFromIssues, type ErrorDetail } from '@formline/errors';
import { isPrototypeKey } from '@formline/input';
import { applyOperation, JsonPatchError } from 'fast-json-patch';

// Applying JSON Patch (RFC 6902) operations, whose shape is declared in
// libs/contracts (the HTTP API documents it with the same schema), to a copy
// of a document. The caller validates the patched document as a whole.
//
// fast-json-patch applies each operation (it refuses prototype paths too);
// what stays here is our policy around it: the allowed top-level roots,
// Typeform's creation of missing objects on `add` (/settings/meta/title on a
// form without meta), refusing every prototype segment (not only `__proto__`
// and `constructor/prototype`), walking own properties only, and one error
// detail per refused operation. A refused patch changes nothing: all of it
// works on a clone, returned only when every operation applied.

export function parsePatchOperations(body: unknown): PatchOperation[] {
  const parsed = patchOperationsSchema.safeParse(body);
  if (!parsed.success) {
    throw new DomainError(ErrorCode.ValidationError, 'The patch is not a list of JSON Patch operations.', [
      ...detailsFromIssues(parsed.error.issues, 'body'),
    ]);
  }
  return parsed.data;
}

// Applies the operations to a copy of the document; every operation must
// touch one of the allowed top-level properties.
export function applyPatch<T extends Record<string, unknown>>(
  document: T,
  operations: readonly PatchOperation[],
  allowedRoots: readonly string[],
): T {
  const result = structuredClone(document) as Record<string, unknown>;
  const problems: ErrorDetail[] = [];
  operations.forEach((operation, index) => {
    const problem = (description: string) =>
      problems.push({ code: 'INVALID_PATCH', description, field: `[${index}].path`, in: 'body' });
    const tokens = pointerSegments(operation.path);
    if (tokens.some(isPrototypeKey)) return problem(`${operation.path} names a prototype`);
    if (!allowedRoots.includes(tokens[0])) {
      return problem(
        `${operation.path} cannot be patched; allowed: ${allowedRoots.map((r) => `/${r}`).join(', ')}`,
      );
    }
    if (operation.op !== 'remove' && !('value' in operation)) return problem(`${operation.op} needs a value`);
    const parent = walk(result, tokens.slice(0, -1), operation.op === 'add');
    if (parent === undefined) return problem(`${operation.path} does not exist`);
    const last = tokens[tokens.length - 1];
    if (operation.op !== 'add' && !Array.isArray(parent) && !Object.hasOwn(parent, last))
      return problem(`${operation.path}: does not exist`);
    try {
      applyOperation(result, { ...operation } as Parameters<typeof applyOperation>[1], true, true, true);
    } catch (error) {
      if (!(error instanceof JsonPatchError)) throw error;
      problem(`${operation.path}: ${describe(error)}`);
    }
  });
  if (problems.length > 0)
    throw new DomainError(ErrorCode.ValidationError, 'The patch cannot be applied.', problems);
  return result as T;
}

// Follows the pointer through own properties only; `add` may create missing
// objects on the way (as Typeform does for settings such as /settings/meta/title).
function walk(root: object, tokens: readonly string[], create: boolean): object | undefined {
  let node: unknown = root;
  for (const token of tokens) {
    if (typeof node !== 'object' || node === null) return undefined;
    const container = node as Record<string, unknown>;
    if (!Object.hasOwn(container, token)) {
      if (!create || Array.isArray(container)) return undefined;
      container[token] = {};
    }
    node = container[token];
  }
  return typeof node === 'object' && node !== null ? node : undefined;
}

// fast-json-patch's error names, said as the rest of our errors say them.
const descriptions: Partial<Record<JsonPatchError['name'], string>> = {
  OPERATION_PATH_UNRESOLVABLE: 'does not exist',
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: 'no such array index',
  OPERATION_VALUE_OUT_OF_BOUNDS: 'no such array index',
  OPERATION_PATH_CANNOT_ADD: 'the parent is not an object',
};

function describe(error: JsonPatchError): string {
  return descriptions[error.name] ?? 'cannot be applied';
}
