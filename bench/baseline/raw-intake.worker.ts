import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { percentile } from '../lib/stats';

// The intake's baseline: the work a submission must do at the least, one
// PostgreSQL transaction inserting a response row and an outbox row of the
// same size (copies of rows the product wrote), through a pool of 10, with as
// many callers as the product's load generator has connections.
interface Input {
  databaseUrl: string;
  seconds: number;
  callers: number;
  response: Record<string, unknown>;
  event: Record<string, unknown>;
}

function insert(table: string, row: Record<string, unknown>): { text: string; values: unknown[] } {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  return {
    text: `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders.join(', ')})`,
    values: columns.map((c) => {
      const value = row[c];
      return value !== null && typeof value === 'object' && !(value instanceof Date)
        ? JSON.stringify(value)
        : value;
    }),
  };
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
      const client = await pool.connect();
      try {
        const id = randomBytes(16).toString('hex');
        await client.query('BEGIN');
        const response = insert('bench_responses', { ...input.response, id, idempotency_key: null });
        await client.query(response.text, response.values);
        const event = insert('bench_outbox_events', { ...input.event, id: `${id}-event` });
        await client.query(event.text, event.values);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
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
