import { createDatabasePool } from '@formline/db';
import type pg from 'pg';
import { databaseUrl, testInfra } from './test-infra';

// Every service's pool bounds its statements (libs/db's database-pool): one
// still running after its caller's deadline is cancelled by PostgreSQL itself.
describe('the statement timeout of the services’ database pools', () => {
  const pools: pg.Pool[] = [];
  const pool = (settings: Parameters<typeof createDatabasePool>[1]) => {
    const made = createDatabasePool(databaseUrl(testInfra(), 'postgres'), settings);
    pools.push(made);
    return made;
  };
  afterAll(() => Promise.all(pools.map((made) => made.end())));

  it('is 15 s unless set', async () => {
    const { rows } = await pool({}).query<{ statement_timeout: string }>('SHOW statement_timeout');
    expect(rows[0].statement_timeout).toBe('15s');
  });

  it('cancels a statement that runs past it', async () => {
    const started = Date.now();
    await expect(pool({ statementTimeoutMs: 200 }).query('SELECT pg_sleep(5)')).rejects.toMatchObject({
      code: '57014',
    });
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
