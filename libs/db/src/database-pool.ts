import { DependencyUnavailableError } from '@formline/errors';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

// How many connections one process keeps to a database, and how long a query
// waits for one when all are busy before it fails as "unavailable" (503).
// Without that bound a burst (clients retrying into a freshly started service)
// queues without end, and the callers' time runs out somewhere less clear.
export interface DatabasePoolSettings {
  size: number;
  acquireTimeoutMs: number;
}

export const defaultDatabasePool: DatabasePoolSettings = { size: 10, acquireTimeoutMs: 2000 };

// Prisma's driver adapter maps the PostgreSQL server's errors and refused
// connections to codes (P1001, SQLSTATE 57P01...), but passes on the driver's
// own failures as they are: a connection lost mid-query, a pool that could
// not hand out a connection in time. Those carry no code, only a message. The
// pool below marks them where they arise, by type: any failure to obtain a
// connection, and any failure of a query that is not the server's answer
// (pg.DatabaseError) nor a programming error, is the database being away.
export function createPrismaAdapter(url: string, settings: Partial<DatabasePoolSettings> = {}): PrismaPg {
  const pool = new WatchedPool({
    connectionString: url,
    max: settings.size ?? defaultDatabasePool.size,
    connectionTimeoutMillis: settings.acquireTimeoutMs ?? defaultDatabasePool.acquireTimeoutMs,
    Client: WatchedClient,
  });
  return new PrismaPg(pool, { disposeExternalPool: true });
}

export function asDatabaseFailure(error: unknown): unknown {
  if (error instanceof pg.DatabaseError || error instanceof TypeError || error instanceof RangeError)
    return error;
  if (error instanceof DependencyUnavailableError) return error;
  return new DependencyUnavailableError('PostgreSQL', { cause: error });
}

type Callback = (error: unknown, ...results: unknown[]) => void;

// Calls `operation` with `args`, turning a failure (by callback or by promise) into asDatabaseFailure's.
function watched(operation: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  const last = args.at(-1);
  if (typeof last === 'function') {
    const callback = last as Callback;
    const wrapped: Callback = (error, ...results) =>
      callback(error ? asDatabaseFailure(error) : error, ...results);
    return operation(...args.slice(0, -1), wrapped);
  }
  const result = operation(...args);
  if (result instanceof Promise) {
    return result.catch((error: unknown) => {
      throw asDatabaseFailure(error);
    });
  }
  return result;
}

class WatchedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => watched(query, args)) as pg.Client['query'];
  }
}

class WatchedPool extends pg.Pool {
  constructor(config: pg.PoolConfig) {
    super(config);
    const connect = this.connect.bind(this) as (...args: unknown[]) => unknown;
    this.connect = ((...args: unknown[]) => watched(connect, args)) as pg.Pool['connect'];
    // pool.query() passes on the client's 'error' event as it is: watch it too.
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => watched(query, args)) as pg.Pool['query'];
  }
}
