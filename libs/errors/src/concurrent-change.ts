import { DomainError } from './domain-error';
import { driverAdapterCause, errorChain } from './error-chain';
import { ErrorCode } from './error-code';

// A write that met another request's write to the same thing at the same
// moment: a key the other took, a row it referred to deleted, a deadlock or a
// serialization failure between the two. Sent
// again, the request sees what the other did. Such a failure is answered 409
// CONFLICT, never 500: the paths that expect a race handle it themselves
// (an idempotency key, a webhook's tag); this catches the ones that do not.
// Like isDependencyUnavailable, it reads codes only, never message text.

// Prisma's codes: unique, foreign key, a transaction's write conflict or
// deadlock. Not P2025 (a record not found): Prisma says that of reads that
// must find a row too, where it is no race.
const prismaCodes = new Set(['P2002', 'P2003', 'P2034']);

// PostgreSQL's SQLSTATEs: unique and foreign key violations, serialization
// failure, deadlock.
const sqlStates = new Set(['23505', '23503', '40001', '40P01']);

export function isConcurrentChange(error: unknown): boolean {
  for (const failure of errorChain(error)) {
    if (failure instanceof DomainError) return false;
    const { code, meta } = failure as { code?: unknown; meta?: unknown };
    if (typeof code === 'string' && (prismaCodes.has(code) || sqlStates.has(code))) return true;
    const { originalCode } = driverAdapterCause(meta) ?? {};
    if (typeof originalCode === 'string' && sqlStates.has(originalCode)) return true;
  }
  return false;
}

// The answer to such a failure: 409 CONFLICT, detail CONCURRENT_CHANGE.
export function concurrentChangeError(): DomainError {
  return new DomainError(
    ErrorCode.Conflict,
    'Another request changed this at the same moment; send the request again.',
    [
      {
        code: 'CONCURRENT_CHANGE',
        description: 'changed by another request meanwhile',
        field: '',
        in: 'body',
      },
    ],
  );
}
