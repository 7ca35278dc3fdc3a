import type { DatabasePoolGroupSettings } from '@formline/config';
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
  /**
   * How long opening one new connection may take before it is abandoned. Not
   * what a caller waits (that is `acquireTimeoutMs`): a connection still
   * opening when its caller gave up goes on opening and serves the next one.
   */
  connectTimeoutMs: number;
  /**
   * How long one statement may run before PostgreSQL cancels it. Every
   * statement of a service is bounded (pages, batches, counts capped), so one
   * that runs this long has lost its caller, whose request gave up at the
   * RPC deadline: without the bound it would go on holding a connection and
   * the database's CPU for nobody.
   */
  statementTimeoutMs: number;
}

export const defaultDatabasePool: DatabasePoolSettings = {
  size: 10,
  acquireTimeoutMs: 2000,
  connectTimeoutMs: 30_000,
  statementTimeoutMs: 15_000,
};

// The pool as an app's schema configures it (libs/config databasePoolVars);
// the connect timeout stays the default.
export function databasePoolOf(config: DatabasePoolGroupSettings): Partial<DatabasePoolSettings> {
  return {
    size: config.DATABASE_POOL_SIZE,
    acquireTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  };
}

// Prisma's driver adapter maps the PostgreSQL server's errors and refused
// connections to codes (P1001, SQLSTATE 57P01...), but passes on the driver's
// own failures as they are: a connection lost mid-query, a pool that could
// not hand out a connection in time. Those carry no code, only a message. The
// pool below marks them where they arise, by type: any failure to obtain a
// connection, and any failure of a query that is not the server's answer
// (pg.DatabaseError) nor a programming error, is the database being away.
//
// The caller's wait and the opening of a connection have separate bounds.
// pg-pool has one (`connectionTimeoutMillis`) for both, and destroys a
// connection still opening when it runs out. On a busy machine a freshly
// started process (or every process, after PostgreSQL restarted) then never
// gets a connection: each takes longer than the 2 s to open while the
// process is swamped by retrying clients, each is cut at 2 s, and the work
// of opening it is lost; the service answers 503 for as long as the load
// lasts (a soak run saw minutes) although PostgreSQL is up. So a caller
// still waits at most `acquireTimeoutMs` (in the pool's queue, whose
// timeout also takes it out of the queue, or for the connection opened for
// it), while the connection opens for up to `connectTimeoutMs`.
export function createPrismaAdapter(url: string, settings: Partial<DatabasePoolSettings> = {}): PrismaPg {
  return new PrismaPg(createDatabasePool(url, settings), { disposeExternalPool: true });
}

// The pools under each client made by withSqlPool:
// - Prisma's own, whose statements are unnamed (planned on every run, with
//   their values), and where the large named reads (an export's pages) run;
// - the keyed statements' (keyedPlans below), made when first asked for: the
//   hottest statements (a submission's insert, the outbox relay's marks, the
//   planner's and the dispatcher's statements) go to it as plain, prepared
//   SQL, as Prisma's runtime around a raw query cost more CPU than the query.
// Both end when Prisma ends its own ($disconnect, which ends nothing if
// Prisma never connected: an app's readiness probe always runs a Prisma query).
interface ClientPools {
  prisma: pg.Pool;
  keyed: () => pg.Pool;
}

const clientPools = new WeakMap<object, ClientPools>();

export function withSqlPool<Client extends object>(
  url: string,
  settings: Partial<DatabasePoolSettings> = {},
  create: (adapter: PrismaPg) => Client,
): Client {
  const prisma = createDatabasePool(url, settings);
  let keyed: pg.Pool | undefined;
  let ended = false;
  const endPrisma = prisma.end.bind(prisma);
  // Prisma ends its pool (promise form) on $disconnect: the keyed one with it.
  prisma.end = async () => {
    ended = true;
    await Promise.all([endPrisma(), keyed?.end()]);
  };
  const client = create(new PrismaPg(prisma, { disposeExternalPool: true }));
  clientPools.set(client, {
    prisma,
    keyed: () => {
      if (ended) {
        throw new DependencyUnavailableError('PostgreSQL', {
          cause: new Error('the database client was disconnected'),
        });
      }
      keyed ??= createDatabasePool(
        url,
        { ...settings, size: Math.min(settings.size ?? defaultDatabasePool.size, keyedPoolSize) },
        keyedPlans,
      );
      return keyed;
    },
  });
  return client;
}

function poolsOf(client: object): ClientPools {
  const pools = clientPools.get(client);
  if (!pools) throw new Error('not a client made by withSqlPool');
  return pools;
}

// Prisma's pool, for plain SQL that reads much (an export's pages).
export function sqlPoolOf(client: object): pg.Pool {
  return poolsOf(client).prisma;
}

// The keyed statements' pool (keyedPlans).
export function keyedPoolOf(client: object): pg.Pool {
  return poolsOf(client).keyed();
}

// Prisma's pool plans every run of a named statement for the tables as they
// are then (plan_cache_mode). With PostgreSQL's default, a connection keeps
// the generic plan it settled on after five runs; made while a table was
// small (a new region, or the rows a burst adds before autovacuum analyzes
// them), that plan reads the whole table on every run, and each run costs
// more as the table grows: the dispatcher's start of an attempt scanned
// `deliveries` twice a statement, a millisecond of the database's time per
// delivery a few thousand deliveries in.
const customPlans = '-c plan_cache_mode=force_custom_plan';

// The keyed statements look rows up by arrays of keys (ids, unique pairs), a
// few hundred at most, and insert or update those rows: for them the right plan
// never depends on a table's size, an index lookup per key in a nested loop.
// Their pool's connections make one generic plan per statement (made again
// only when a table's statistics or definition change), with sequential
// scans, hash and merge joins ruled out, so that the plan is the index plan
// even while a table is new and small. Planning every run had cost more than
// a third of the database's time in these statements (bench, 600
// submissions/s). JIT stays off: a ruled-out path left as the only one keeps
// a huge cost estimate, which must not start a compiler.
// Each kind of keyed statement has at most one run under way in a process
// (StatementBatch gathers the rest), so a few connections serve them all.
const keyedPoolSize = 4;

const keyedPlans =
  '-c plan_cache_mode=force_generic_plan -c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off -c jit=off';

// A pool (exported for its tests): Prisma's by default.
export function createDatabasePool(
  url: string,
  settings: Partial<DatabasePoolSettings> = {},
  session = customPlans,
): pg.Pool {
  return new WatchedPool(
    {
      connectionString: url,
      max: settings.size ?? defaultDatabasePool.size,
      Client: WatchedClient,
      statement_timeout: settings.statementTimeoutMs ?? defaultDatabasePool.statementTimeoutMs,
      options: session,
    },
    settings.acquireTimeoutMs ?? defaultDatabasePool.acquireTimeoutMs,
    settings.connectTimeoutMs ?? defaultDatabasePool.connectTimeoutMs,
  );
}

export function asDatabaseFailure(error: unknown): unknown {
  if (error instanceof pg.DatabaseError || error instanceof TypeError || error instanceof RangeError)
    return error;
  if (error instanceof DependencyUnavailableError) return error;
  return new DependencyUnavailableError('PostgreSQL', { cause: error });
}

type Callback = (error: unknown, ...results: unknown[]) => void;
type PoolCallback = (
  error: unknown,
  client: pg.PoolClient | undefined,
  done: (error?: Error) => void,
) => void;

// A connection from the pool within `timeoutMs`, or a failure then; a
// connection opened for the caller that arrives later is given straight back
// (idle, for the next caller) instead of being destroyed.
export function withinAcquireTimeout(
  connect: () => Promise<pg.PoolClient>,
  timeoutMs: number,
): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error('timeout exceeded when trying to connect'));
    }, timeoutMs);
    connect().then(
      (client) => {
        clearTimeout(timer);
        if (late) client.release();
        else resolve(client);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!late) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

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

// pg-pool's own parts used below: it reads `options.connectionTimeoutMillis`
// both when a caller queues for a busy pool (the queue's timeout) and when
// `newClient` starts opening a connection (the connection's timeout).
interface PgPoolInternals {
  options: { connectionTimeoutMillis: number };
  newClient(pendingItem: unknown): void;
}

class WatchedPool extends pg.Pool {
  constructor(config: pg.PoolConfig, acquireTimeoutMs: number, connectTimeoutMs: number) {
    super({ ...config, connectionTimeoutMillis: acquireTimeoutMs });
    // An idle connection that fails (PostgreSQL restarting, the network
    // cut) is dropped by the pool, which opens another when one is needed;
    // its 'error' event, with no listener, would end the process.
    this.on('error', () => undefined);
    const internals = this as unknown as PgPoolInternals;
    const newClient = internals.newClient.bind(this);
    internals.newClient = (pendingItem) => {
      internals.options.connectionTimeoutMillis = connectTimeoutMs;
      try {
        newClient(pendingItem);
      } finally {
        internals.options.connectionTimeoutMillis = acquireTimeoutMs;
      }
    };
    const acquire = () =>
      withinAcquireTimeout(() => super.connect(), acquireTimeoutMs).catch((error: unknown) => {
        throw asDatabaseFailure(error);
      });
    // Both forms: promise (Prisma's transactions) and callback (pool.query()).
    this.connect = ((callback?: PoolCallback) => {
      if (!callback) return acquire();
      acquire().then(
        (client) => callback(undefined, client, (error?: Error) => client.release(error)),
        (error: unknown) => callback(error, undefined, () => undefined),
      );
      return undefined;
    }) as pg.Pool['connect'];
    // pool.query() passes on the client's 'error' event as it is: watch it too.
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => watched(query, args)) as pg.Pool['query'];
  }
}
