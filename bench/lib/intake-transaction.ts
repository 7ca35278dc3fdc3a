import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

// The least a submission must do: one PostgreSQL transaction inserting a
// response row and an outbox row of the same size (copies of rows the product
// wrote), into the tables it is given. Shared by the intake's baselines.
// The NATS subject of the intake's floor (stack-intake.server and .service):
// the bench's own, which no app serves, so not one of libs/contracts' Subjects.
// eslint-disable-next-line no-restricted-syntax
export const stackIntakeSubject = 'bench.stack-intake.v1';

// Where a baseline writes: the tables' names in the responses database.
export interface IntakeTables {
  responses: string;
  outbox: string;
}

// The floor: the product's columns, a primary key and nothing else (no other
// index, no trigger), so what the product's schema costs a write shows apart.
export const plainTables: IntakeTables = {
  responses: 'bench_plain_responses',
  outbox: 'bench_plain_outbox_events',
};

// Copies of the product's tables with their indexes and the trigger that
// derives answered_fields: the same write paying the schema's costs.
export const productTables: IntakeTables = { responses: 'bench_responses', outbox: 'bench_outbox_events' };

export interface SubmissionRows {
  response: Record<string, unknown>;
  event: Record<string, unknown>;
  tables: IntakeTables;
}

export async function writeSubmissionRows(pool: Pool, rows: SubmissionRows): Promise<string> {
  const client = await pool.connect();
  try {
    const id = randomBytes(16).toString('hex');
    await client.query('BEGIN');
    const response = insertStatement(rows.tables.responses, { ...rows.response, id, idempotency_key: null });
    await client.query(response.text, response.values);
    const event = insertStatement(rows.tables.outbox, { ...rows.event, id: `${id}-event` });
    await client.query(event.text, event.values);
    await client.query('COMMIT');
    return id;
  } finally {
    client.release();
  }
}

// The responses table's text[] columns: passed as arrays, where every other
// object or array is a JSON column, serialized.
const arrayColumns = new Set(['answered_fields']);

// An INSERT of one row: column names from the row's keys.
function insertStatement(table: string, row: Record<string, unknown>): { text: string; values: unknown[] } {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  return {
    text: `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders.join(', ')})`,
    values: columns.map((c) => {
      const value = row[c];
      if (arrayColumns.has(c) || value instanceof Date || value === null || typeof value !== 'object')
        return value;
      return JSON.stringify(value);
    }),
  };
}
