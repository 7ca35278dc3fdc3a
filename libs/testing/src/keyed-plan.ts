import type pg from 'pg';

// The plan a keyed statement (libs/db: keyedPoolOf) gets on a connection of
// the keyed pool: its generic plan, every parameter unknown, as EXPLAIN
// prints it.
export async function genericPlanOf(connection: pg.PoolClient, text: string): Promise<string> {
  const parameters = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  await connection.query(`PREPARE keyed_statement AS ${text}`);
  try {
    const values = parameters === 0 ? '' : `(${Array.from({ length: parameters }, () => 'NULL').join(', ')})`;
    const plan = await connection.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE keyed_statement${values}`);
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await connection.query('DEALLOCATE keyed_statement');
  }
}

// The steps of a plan that read more than the rows of its keys: a table read
// whole (a sequential scan, or an index scan with no condition), a hash or a
// merge of two inputs, or one of `stateIndexes` (an index on a state that
// many rows share, such as "unpublished" or "pending"). Empty for a plan of
// key lookups.
export function stepsBeyondKeys(plan: string, stateIndexes?: RegExp): string[] {
  const lines = plan.split('\n');
  return lines.filter((line, at) => {
    if (/Seq Scan|Hash( \w+)? Join|hashed SubPlan|Merge/.test(line) || stateIndexes?.test(line)) return true;
    if (!/Index (Only )?Scan/.test(line)) return false;
    // Its own lines (conditions, filters) come before the next step.
    const next = lines.findIndex((other, after) => after > at && other.includes('->'));
    const own = lines.slice(at + 1, next === -1 ? undefined : next);
    return !own.some((detail) => detail.includes('Index Cond'));
  });
}
