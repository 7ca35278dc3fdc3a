import { eventually } from './eventually';

// Backends of the spec's database that wait on a lock.
const lockWaitersSql = `SELECT count(*)::int AS waiting FROM pg_stat_activity
  WHERE datname = current_database() AND wait_event_type = 'Lock'`;

// Until some backend waits on a lock, read through `query` (the spec's own
// connection); how many wait then (none if none came). A spec that holds rows
// in an open transaction lets go once the statement under test has reached
// them, not after a fixed time.
export function untilLockWaiters(
  query: (sql: string) => Promise<Array<{ waiting: number }>>,
): Promise<number> {
  return eventually(
    async () => (await query(lockWaitersSql))[0].waiting,
    (waiting) => waiting > 0,
  );
}
