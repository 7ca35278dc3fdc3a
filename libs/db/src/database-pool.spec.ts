import { isDependencyUnavailable } from '@formline/errors';
import pg from 'pg';
import { asDatabaseFailure } from './database-pool';
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
