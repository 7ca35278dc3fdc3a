import { patchOperationsSchema, type PatchOperation } from '@formline/contracts';
import { DomainError, ErrorCode, detailsFromIssues, type ErrorDetail } from '@formline/errors';

// Applying JSON Patch (RFC 6902) operations, whose shape is declared in
// libs/contracts (the HTTP API documents it with the same schema), to a copy
// of a document. The caller validates the patched document as a whole.

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
    const tokens = operation.path.slice(1).split('/').map(unescapeToken);
    if (!allowedRoots.includes(tokens[0])) {
      return problem(
        `${operation.path} cannot be patched; allowed: ${allowedRoots.map((r) => `/${r}`).join(', ')}`,
      );
    }
    if (operation.op !== 'remove' && !('value' in operation)) return problem(`${operation.op} needs a value`);
    const parent = walk(result, tokens.slice(0, -1), operation.op === 'add');
    const last = tokens[tokens.length - 1];
    if (parent === undefined) return problem(`${operation.path} does not exist`);
    const error = applyAt(parent, last, operation);
    if (error) problem(`${operation.path}: ${error}`);
  });
  if (problems.length > 0)
    throw new DomainError(ErrorCode.ValidationError, 'The patch cannot be applied.', problems);
  return result as T;
}

function applyAt(parent: unknown, key: string, operation: PatchOperation): string | undefined {
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) return 'no such array index';
    if (operation.op === 'add') parent.splice(index, 0, operation.value);
    else if (index >= parent.length) return 'no such array index';
    else if (operation.op === 'remove') parent.splice(index, 1);
    else parent[index] = operation.value;
    return undefined;
  }
  if (typeof parent !== 'object' || parent === null) return 'the parent is not an object';
  const object = parent as Record<string, unknown>;
  if (operation.op !== 'add' && !(key in object)) return 'does not exist';
  if (operation.op === 'remove') delete object[key];
  else object[key] = operation.value;
  return undefined;
}

// Follows the pointer; `add` may create missing objects on the way (as
// Typeform does for settings such as /settings/meta/title).
function walk(root: unknown, tokens: readonly string[], create: boolean): unknown {
  let node = root;
  for (const token of tokens) {
    if (typeof node !== 'object' || node === null) return undefined;
    const container = node as Record<string, unknown>;
    if (container[token] === undefined && create && !Array.isArray(node)) container[token] = {};
    node = container[token];
  }
  return node;
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
