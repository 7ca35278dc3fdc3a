import { Client } from 'pg';
import { BenchChild } from './child';
import { type Context, progress, type RawFloorFigures, round1, settings, submitMany } from './bench-run';
import { type IntakeTables, plainTables, productTables, type SubmissionRows } from './intake-transaction';
import { backgroundCores, cpuSpent, perRequestUs } from './machine-cpu';
import { median } from './stats';

// The raw transaction, the floor every intake and pipeline ratio is set
// against: the baseline worker (baseline/raw-intake.worker.ts) writing copies
// of a response row and an outbox row the product wrote, through a pool of
// 10, with as many callers as the product's load generator has connections.

export interface RawRound {
  /** Transactions per second. */
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  /** The whole machine's CPU per transaction, less its background, µs. */
  machineUs: number;
}

// The floor's tables in the responses database, and rows to copy into them.
export class RawFloor {
  private constructor(
    private readonly pg: Client,
    readonly databaseUrl: string,
    private readonly rows: Omit<SubmissionRows, 'tables'>,
  ) {}

  // Both sets of tables, and the newest rows the product wrote (one
  // submission to the delivery form first if it wrote none yet).
  static async open(c: Context): Promise<RawFloor> {
    const databaseUrl = `${c.infra.databaseHostUrl}/formline_responses_us`;
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    const newest = async (table: string) =>
      (await pg.query(`SELECT * FROM ${table} ORDER BY created_at DESC LIMIT 1`)).rows[0] as
        Record<string, unknown> | undefined;
    if (!(await newest('responses'))) {
      await submitMany(`${c.stack.baseUrl}/forms/${c.deliveryFormId}/submissions`, 1);
    }
    for (const tables of [plainTables, productTables]) await dropTables(pg, tables);
    await pg.query(
      `CREATE TABLE ${plainTables.responses} (LIKE responses INCLUDING DEFAULTS, PRIMARY KEY (id))`,
    );
    await pg.query(
      `CREATE TABLE ${plainTables.outbox} (LIKE outbox_events INCLUDING DEFAULTS, PRIMARY KEY (id))`,
    );
    // LIKE copies no trigger: the one that derives answered_fields is put back
    // (a pure function of the row). The tallies' triggers are not: they write
    // the product's own counts, of a row type these copies do not have.
    await pg.query(`CREATE TABLE ${productTables.responses} (LIKE responses INCLUDING ALL)`);
    await pg.query(`CREATE TABLE ${productTables.outbox} (LIKE outbox_events INCLUDING ALL)`);
    await pg.query(
      `CREATE TRIGGER bench_responses_answered_fields BEFORE INSERT OR UPDATE OF payload ON ${productTables.responses}
         FOR EACH ROW EXECUTE FUNCTION responses_set_answered_fields()`,
    );
    const [response, event] = [await newest('responses'), await newest('outbox_events')];
    if (!response || !event) throw new Error('raw floor: the product wrote no response to copy');
    return new RawFloor(pg, databaseUrl, { response, event });
  }

  /** The rows and tables a baseline server writes with. */
  input(tables: IntakeTables = plainTables): SubmissionRows {
    return { ...this.rows, tables };
  }

  // One round of the raw transaction on `tables`, with the machine's CPU
  // per transaction (`background`: the machine's idle cores, taken off).
  async round(tables: IntakeTables, seconds: number, background: number): Promise<RawRound> {
    const spent = cpuSpent(() => ({}), background);
    const result = await BenchChild.start('baseline/raw-intake.worker.js', {
      databaseUrl: this.databaseUrl,
      seconds,
      callers: settings.connections,
      ...this.input(tables),
    }).result<Omit<RawRound, 'machineUs'>>();
    return { ...result, machineUs: perRequestUs(spent(), result.ok).machine };
  }

  async close(): Promise<void> {
    for (const tables of [plainTables, productTables]) await dropTables(this.pg, tables);
    await this.pg.end();
  }
}

// The plain floor in this run: the intake's rounds if it ran, otherwise
// measured now (BENCH_ROUNDS rounds of BENCH_SECONDS).
export async function plainRawFloor(c: Context): Promise<RawFloorFigures> {
  if (c.rawFloor) return c.rawFloor;
  progress('raw transaction on plain tables (the floor; the intake stage did not run)');
  const floor = await RawFloor.open(c);
  const figures: RawFloorFigures = { txPerSecond: [], machineUs: [] };
  try {
    await floor.round(plainTables, 2, 0); // warm-up
    const background = await backgroundCores(2000);
    for (let round = 1; round <= settings.rounds; round++) {
      const raw = await floor.round(plainTables, settings.seconds, background);
      figures.txPerSecond.push(raw.rps);
      figures.machineUs.push(raw.machineUs);
      progress(
        `  round ${round}: ${round1(raw.rps)} tx/s, machine CPU ${Math.round(raw.machineUs)} µs per tx`,
      );
    }
  } finally {
    await floor.close();
  }
  progress(
    `  floor: ${round1(median(figures.txPerSecond))} tx/s, ${Math.round(median(figures.machineUs))} µs per tx`,
  );
  c.rawFloor = figures;
  return figures;
}

async function dropTables(pg: Client, tables: IntakeTables): Promise<void> {
  await pg.query(`DROP TABLE IF EXISTS ${tables.responses}, ${tables.outbox}`);
}
