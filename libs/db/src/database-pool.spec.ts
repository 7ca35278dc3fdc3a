import { isDependencyUnavailable } from '@formline/errors';
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { asDatabaseFailure, createDatabasePool } from './database-pool';
import { createResponsesDatabase } from './responses.database';

describe('database failures', () => {
  it('marks the driver failures that carry no code (a lost connection, a pool timeout)', () => {
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isDependencyUnavailable(asDatabaseFailure(new Error('Connection terminated unexpectedly')))).toBe(
      true,
    );
    expect(
      isDependencyUnavailable(asDatabaseFailure(new Error('timeout exceeded when trying to connect'))),
    ).toBe(true);
  });

  it("leaves the server's answers and programming errors as they are", () => {
    const serverError = new pg.DatabaseError('duplicate key', 0, 'error');
    serverError.code = '23505';
    expect(asDatabaseFailure(serverError)).toBe(serverError);
    const bug = new TypeError('x is undefined');
    expect(asDatabaseFailure(bug)).toBe(bug);
  });

  it('fails a query on a database nobody listens for as unavailable, through Prisma', async () => {
    // Port 1 on loopback: refused at once, no server needed.
    const db = createResponsesDatabase('postgresql://postgres@127.0.0.1:1/none', { acquireTimeoutMs: 1000 });
    try {
      const [raw, model, transaction] = await Promise.all([
        db.$queryRaw`SELECT 1`.then(
          () => undefined,
          (error: unknown) => error,
        ),
        db.outboxEvent.count().then(
          () => undefined,
          (error: unknown) => error,
        ),
        db.$transaction([db.outboxEvent.count()]).then(
          () => undefined,
          (error: unknown) => error,
        ),
      ]);
      for (const error of [raw, model, transaction]) expect(isDependencyUnavailable(error)).toBe(true);
    } finally {
      await db.$disconnect();
    }
  });
});

// A PostgreSQL server slow to open a connection (as a busy machine is): it
// answers each new connection's startup message after `delayMs` with
// AuthenticationOk and ReadyForQuery, which is all a pool's connect needs.
class SlowStartingServer {
  opened = 0;
  closed = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly delayMs: number) {
    this.server = createServer((socket) => {
      this.opened++;
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        this.closed++;
        this.sockets.delete(socket);
      });
      socket.once('data', () => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (socket.destroyed) return;
          const authenticationOk = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0]);
          const readyForQuery = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
          socket.write(Buffer.concat([authenticationOk, readyForQuery]));
        }, this.delayMs);
        this.timers.add(timer);
      });
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('database pool', () => {
  it('answers a caller within the acquire timeout, but keeps opening the connection for the next one', async () => {
    const server = new SlowStartingServer(600);
    const port = await server.listen();
    const pool = createDatabasePool(`postgresql://postgres@127.0.0.1:${port}/none`, {
      size: 1,
      acquireTimeoutMs: 200,
    });
    try {
      const first = await pool.connect().then(
        () => undefined,
        (error: unknown) => error,
      );
      // The caller is told at once (503, retry) ...
      expect(isDependencyUnavailable(first)).toBe(true);
      // ... and the connection opening meanwhile is not thrown away: once
      // open it waits in the pool for the next caller. (Cut at the caller's
      // timeout, as pg-pool does by itself, no connection ever opens while
      // opening one takes longer than that timeout.)
      await new Promise((resolve) => setTimeout(resolve, 700));
      const client = await pool.connect();
      client.release();
      expect(server.opened).toBe(1);
      expect(server.closed).toBe(0);
      // The callback form (pool.query() uses it) gets the same connection.
      const viaCallback = await new Promise<pg.PoolClient>((resolve, reject) =>
        pool.connect((error, pooled) =>
          pooled ? resolve(pooled) : reject(error ?? new Error('no connection')),
        ),
      );
      viaCallback.release();
      expect(server.opened).toBe(1);
    } finally {
      await pool.end();
      await server.close();
    }
  });

  it('gives up opening a connection after the connect timeout', async () => {
    const server = new SlowStartingServer(60_000);
    const port = await server.listen();
    const pool = createDatabasePool(`postgresql://postgres@127.0.0.1:${port}/none`, {
      size: 1,
      acquireTimeoutMs: 100,
      connectTimeoutMs: 300,
    });
    try {
      await expect(pool.connect()).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(server.closed).toBe(1);
    } finally {
      await pool.end();
      await server.close();
    }
  });

  it('drops an idle connection that fails, and lives on', async () => {
    const server = new SlowStartingServer(0);
    const port = await server.listen();
    const pool = createDatabasePool(`postgresql://postgres@127.0.0.1:${port}/none`, { size: 1 });
    try {
      (await pool.connect()).release();
      // PostgreSQL goes away under the idle connection: the pool's 'error'
      // event, were nobody listening, would end the process (and this test).
      const dropped = new Promise((resolve) => pool.once('error', resolve));
      await server.close();
      await dropped;
      expect(pool.listenerCount('error')).toBe(1);
      expect(pool.totalCount).toBe(0);
    } finally {
      await pool.end();
    }
  });
});
