import { Client } from 'pg';
import { round } from './stats';

// Where PostgreSQL's share of a pipeline step goes, statement by statement
// (BENCH_PG_STATEMENTS=1, which starts the server with pg_stat_statements):
// counted from a reset at the step's start, each statement's execution and
// planning time and its calls, per delivered submission. The machine CPU
// figure says how much PostgreSQL costs; this says which statement.
export class PgStatements {
  private constructor(private readonly db: Client) {}

  static async open(databaseHostUrl: string): Promise<PgStatements> {
    const db = new Client({ connectionString: `${databaseHostUrl}/postgres` });
    await db.connect();
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    return new PgStatements(db);
  }

  async reset(): Promise<void> {
    await this.db.query('SELECT pg_stat_statements_reset()');
  }

  /** The `limit` costliest statements since the reset, as lines, per `delivered` submission. */
  async describe(delivered: number, limit = 12): Promise<string[]> {
    const { rows } = await this.db.query<{
      query: string;
      calls: string;
      exec_ms: number;
      plan_ms: number;
      rows: string;
    }>(
      `SELECT query, calls, total_exec_time AS exec_ms, total_plan_time AS plan_ms, rows
         FROM pg_stat_statements
        WHERE query NOT ILIKE '%pg_stat_statements%'
        ORDER BY total_exec_time + total_plan_time DESC
        LIMIT $1`,
      [limit],
    );
    const per = Math.max(1, delivered);
    const all = rows.reduce((sum, row) => sum + row.exec_ms + row.plan_ms, 0);
    return [
      `PostgreSQL statements, µs per delivered submission (execution + planning), calls per submission; top ${rows.length}: ${round((all * 1000) / per, 0)} µs`,
      ...rows.map(
        (row) =>
          `${String(round((row.exec_ms * 1000) / per, 0)).padStart(5)} + ${String(round((row.plan_ms * 1000) / per, 0)).padStart(4)} µs  ${round(Number(row.calls) / per, 2)} calls  ${round(Number(row.rows) / Math.max(1, Number(row.calls)), 1)} rows/call  ${oneLine(row.query)}`,
      ),
    ];
  }

  async close(): Promise<void> {
    await this.db.end();
  }
}

function oneLine(query: string): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  return flat.length > 140 ? `${flat.slice(0, 140)}…` : flat;
}
