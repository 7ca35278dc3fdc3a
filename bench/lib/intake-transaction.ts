import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

// The least a submission must do: one PostgreSQL transaction inserting a
// response row and an outbox row of the same size (copies of rows the product
// wrote). Shared by the intake's baselines.
// The NATS subject of the intake's floor (stack-intake.server and .service):
// the bench's own, which no app serves, so not one of libs/contracts' Subjects.
// eslint-disable-next-line no-restricted-syntax
export const stackIntakeSubject = 'bench.stack-intake.v1';

export interface SubmissionRows {
  response: Record<string, unknown>;
  event: Record<string, unknown>;
}

export async function writeSubmissionRows(pool: Pool, rows: SubmissionRows): Promise<string> {
  const client = await pool.connect();
  try {
    const id = randomBytes(16).toString('hex');
    await client.query('BEGIN');
    const response = insertStatement('bench_responses', { ...rows.response, id, idempotency_key: null });
    await client.query(response.text, response.values);
    const event = insertStatement('bench_outbox_events', { ...rows.event, id: `${id}-event` });
    await client.query(event.text, event.values);
    await client.query('COMMIT');
    return id;
  } finally {
    client.release();
  }
}

// An INSERT of one row: column names from the row's keys, JSON columns serialized.
function insertStatement(table: string, row: Record<string, unknown>): { text: string; values: unknown[] } {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  return {
    text: `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders.join(', ')})`,
    values: columns.map((c) => {
      const value = row[c];
      // An array column (answered_fields) goes as an array; a JSON one as its text.
      return value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value)
        ? JSON.stringify(value)
        : value;
    }),
  };
}
