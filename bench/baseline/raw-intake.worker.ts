import { Pool } from 'pg';
import { writeSubmissionRows, type SubmissionRows } from '../lib/intake-transaction';
import { percentile } from '../lib/stats';

// The intake's baseline: the work a submission must do at the least, one
// PostgreSQL transaction inserting a response row and an outbox row of the
// same size (copies of rows the product wrote) into the tables it is given
// (plain: the floor; copies of the product's: the schema's cost), through a
// pool of 10, with as many callers as the product's load generator has connections.
interface Input extends SubmissionRows {
  databaseUrl: string;
  seconds: number;
  callers: number;
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as Input;
  const pool = new Pool({ connectionString: input.databaseUrl, max: 10 });
  const latencies: number[] = [];
  let done = 0;
  const end = Date.now() + input.seconds * 1000;
  const started = performance.now();
  const caller = async () => {
    while (Date.now() < end) {
      const begun = performance.now();
      await writeSubmissionRows(pool, input);
      latencies.push(performance.now() - begun);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: input.callers }, caller));
  const seconds = (performance.now() - started) / 1000;
  await pool.end();
  process.stdout.write(
    `${JSON.stringify({ rps: done / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), ok: done })}\n`,
  );
}

void main();
