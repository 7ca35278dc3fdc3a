import { DomainError } from './domain-error';
import { driverAdapterCause, errorChain } from './error-chain';
import { ErrorCode } from './error-code';

// The one place that decides whether a failure means "a server we depend on
// (PostgreSQL, NATS, Redis) is away or saturated right now": such a failure is
// answered 503 SERVICE_UNAVAILABLE with Retry-After, never 500, because the
// same request will succeed once the server is back. The decision reads error
// types and codes only (driver, Prisma, PostgreSQL SQLSTATE, Node system
// errors), never message text, which changes between versions and languages.

// Thrown by our own wrappers around drivers (libs/db's pool) when a failure is
// known to be the dependency's and carries no code of its own.
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    options: { cause: unknown },
  ) {
    super(`${dependency} is unavailable`, options);
    this.name = 'DependencyUnavailableError';
  }
}

// Node's socket errors: the server refused, reset or never answered.
const systemCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// Prisma's codes for a database it cannot reach or a pool it cannot draw from.
// https://www.prisma.io/docs/orm/reference/error-reference
const prismaCodes = new Set([
  'P1001', // can't reach database server
  'P1002', // database server timed out
  'P1008', // operations timed out
  'P1017', // server closed the connection
  'P2024', // timed out fetching a connection from the pool
  'P2028', // transaction API error (a transaction that could not start in time)
  'P2037', // too many database connections
]);

// The driver adapter's kinds for the same (meta.driverAdapterError.cause.kind).
const adapterKinds = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

// PostgreSQL SQLSTATEs of a server going away or full: class 08 (connection
// exception), 57P01-57P03 (shutdown, crash, starting up), 53300 (too many connections).
function isUnavailableSqlState(code: string): boolean {
  return /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code);
}

// ioredis' error classes, by name (the request path never imports ioredis here).
const redisErrorNames = new Set(['MaxRetriesPerRequestError']);

export function isDependencyUnavailable(error: unknown): boolean {
  for (const failure of errorChain(error)) {
    if (failure instanceof DependencyUnavailableError) return true;
    if (failure instanceof DomainError) return failure.code === ErrorCode.ServiceUnavailable;
    const { code, name, meta } = failure as { code?: unknown; name?: unknown; meta?: unknown };
    if (typeof code === 'string') {
      if (systemCodes.has(code) || prismaCodes.has(code) || isUnavailableSqlState(code)) return true;
    }
    if (typeof name === 'string' && redisErrorNames.has(name)) return true;
    if (isUnavailableAdapterError(meta)) return true;
  }
  return false;
}

// A driver's failure Prisma wrapped (driverAdapterCause): the
// kinds of a server away, or a SQLSTATE of one.
function isUnavailableAdapterError(meta: unknown): boolean {
  const { kind, originalCode } = driverAdapterCause(meta) ?? {};
  if (typeof kind === 'string' && adapterKinds.has(kind)) return true;
  return typeof originalCode === 'string' && isUnavailableSqlState(originalCode);
}

// The answer to such a failure: 503 SERVICE_UNAVAILABLE (the gateway adds Retry-After).
export function unavailableError(what: string): DomainError {
  return new DomainError(ErrorCode.ServiceUnavailable, `${what} is unavailable for a moment; retry later.`);
}
