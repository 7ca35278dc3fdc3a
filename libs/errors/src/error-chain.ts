// An error and the failures it wraps, outermost first: wrappers keep the
// original failure in `cause`. At most `depth` of them, so a cycle ends.
export function* errorChain(error: unknown, depth = 5): Generator<object> {
  let current: unknown = error;
  for (let step = 0; step < depth && typeof current === 'object' && current !== null; step++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

// Prisma wraps a driver's failure as `meta.driverAdapterError.cause`: `{kind}`,
// and for a server error `{kind: 'postgres', originalCode: '<SQLSTATE>'}`.
export function driverAdapterCause(meta: unknown): { kind?: unknown; originalCode?: unknown } | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const cause = (meta as { driverAdapterError?: { cause?: unknown } }).driverAdapterError?.cause;
  return typeof cause === 'object' && cause !== null ? cause : undefined;
}
