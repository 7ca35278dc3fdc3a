import { Client } from 'pg';
import { round } from './stats';

// Where PostgreSQL's share of a pipeline step goes, statement by statement
// (BENCH_PG_STATEMENTS=1, which starts the server with pg_stat_statements):
// counted from a reset at the step's start, each statement's execution and
// planning time and its calls, per delivered submission. The machine CPU
// figure says how much PostgreSQL costs; this says which statement. Beside
// them, what the writes cost: WAL per delivered submission, and each hot
// table's rows inserted and updated, with the share of updates that were
// heap-only (HOT: no index entry written), which no noise on the machine moves.
export class PgStatements {
  private tablesAtReset: TableWrites[] = [];
  private walAtReset: WalFigures = { bytes: 0, records: 0 };

  private constructor(
    private readonly db: Client,
    private readonly regionDbs: Client[],
  ) {}

  static async open(databaseHostUrl: string): Promise<PgStatements> {
    const db = new Client({ connectionString: `${databaseHostUrl}/postgres` });
    await db.connect();
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const regionDbs = writtenDatabases.map(
      (name) => new Client({ connectionString: `${databaseHostUrl}/${name}` }),
    );
    await Promise.all(regionDbs.map((client) => client.connect()));
    return new PgStatements(db, regionDbs);
  }

  async reset(): Promise<void> {
    await this.db.query('SELECT pg_stat_statements_reset()');
    this.tablesAtReset = await this.tableWrites();
    this.walAtReset = await this.wal();
  }

  /** The `limit` costliest statements since the reset, as lines, per `delivered` submission. */
  async describe(delivered: number, limit = 12): Promise<string[]> {
    const { rows } = await this.db.query<{
      query: string;
      calls: string;
      exec_ms: number;
      longest_ms: number;
      plan_ms: number;
      rows: string;
    }>(
      `SELECT query, calls, total_exec_time AS exec_ms, max_exec_time AS longest_ms,
              total_plan_time AS plan_ms, rows
         FROM pg_stat_statements
        WHERE query NOT ILIKE '%pg_stat_statements%'
        ORDER BY total_exec_time + total_plan_time DESC
        LIMIT $1`,
      [limit],
    );
    const per = Math.max(1, delivered);
    const all = rows.reduce((sum, row) => sum + row.exec_ms + row.plan_ms, 0);
    return [
      ...(await this.describeWrites(per)),
      `PostgreSQL statements, µs per delivered submission (execution + planning), calls per submission, rows per call, the longest run; top ${rows.length}: ${round((all * 1000) / per, 0)} µs`,
      ...rows.map(
        (row) =>
          `${String(round((row.exec_ms * 1000) / per, 0)).padStart(5)} + ${String(round((row.plan_ms * 1000) / per, 0)).padStart(4)} µs  ${round(Number(row.calls) / per, 2)} calls  ${round(Number(row.rows) / Math.max(1, Number(row.calls)), 1)} rows/call  longest ${round(row.longest_ms, 1)} ms  ${oneLine(row.query)}`,
      ),
    ];
  }

  async close(): Promise<void> {
    await Promise.all([this.db, ...this.regionDbs].map((client) => client.end()));
  }

  // The writes since the reset, per delivered submission. A backend hands its
  // counters to the statistics at most once a second while busy, and within
  // 10 s of going idle: read them once that has passed.
  private async describeWrites(per: number): Promise<string[]> {
    await new Promise((resolve) => setTimeout(resolve, statisticsFlushMs));
    const wal = await this.wal();
    const before = new Map(this.tablesAtReset.map((t) => [t.table, t]));
    const lines = [
      `PostgreSQL writes per delivered submission: WAL ${round((wal.bytes - this.walAtReset.bytes) / per, 0)} bytes in ${round((wal.records - this.walAtReset.records) / per, 1)} records`,
    ];
    for (const now of await this.tableWrites()) {
      const then = before.get(now.table) ?? { ...now, inserted: 0, updated: 0, hot: 0 };
      const updated = now.updated - then.updated;
      const inserted = now.inserted - then.inserted;
      if (updated + inserted === 0) continue;
      const hotShare = updated === 0 ? '-' : `${round((100 * (now.hot - then.hot)) / updated, 0)}%`;
      lines.push(
        `  ${now.table}: ${round(inserted / per, 2)} inserted, ${round(updated / per, 2)} updated (heap-only ${hotShare})`,
      );
    }
    return lines;
  }

  private async wal(): Promise<WalFigures> {
    const { rows } = await this.db.query<{ bytes: string; records: string }>(
      'SELECT wal_bytes AS bytes, wal_records AS records FROM pg_stat_wal',
    );
    return { bytes: Number(rows[0]?.bytes ?? 0), records: Number(rows[0]?.records ?? 0) };
  }

  private async tableWrites(): Promise<TableWrites[]> {
    const all = await Promise.all(
      this.regionDbs.map(async (client) => {
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query<{
          table: string;
          inserted: string;
          updated: string;
          hot: string;
        }>(
          `SELECT current_database() || '.' || relname AS table, n_tup_ins AS inserted,
                  n_tup_upd AS updated, n_tup_hot_upd AS hot
             FROM pg_stat_user_tables ORDER BY relname`,
        );
        return rows.map((row) => ({
          table: row.table,
          inserted: Number(row.inserted),
          updated: Number(row.updated),
          hot: Number(row.hot),
        }));
      }),
    );
    return all.flat();
  }
}

// PostgreSQL's longest wait before an idle backend reports its counters.
const statisticsFlushMs = 11_000;

// The databases a submission writes to in region us.
const writtenDatabases = ['formline_responses_us', 'formline_webhooks_us'];

interface TableWrites {
  table: string;
  inserted: number;
  updated: number;
  hot: number;
}

interface WalFigures {
  bytes: number;
  records: number;
}

function oneLine(query: string): string {
  const flat = query.replace(/\s+/g, ' ').trim();
  return flat.length > 140 ? `${flat.slice(0, 140)}…` : flat;
}
