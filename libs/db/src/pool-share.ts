import { unavailableError } from '@formline/errors';
import { Slots } from './slots';

// Turns for transactions that hold their connection while they wait on
// something else: a read on a second connection (a form's write), a request
// to another service (a response deletion asking the media app to remove the
// files' bytes). With as many of them under way as the pool has connections,
// every other query of the process would wait for one until the pool's
// timeout. They hold at most half the pool at once; more wait in the process,
// holding none, as long as a query waits for a connection: then 503 (`what`
// is unavailable), and the work never runs.
export function halfThePoolSlots(
  pool: { DATABASE_POOL_SIZE: number; DATABASE_POOL_TIMEOUT_MS: number },
  what: string,
): Slots {
  return new Slots(Math.max(1, Math.floor(pool.DATABASE_POOL_SIZE / 2)), {
    maxWaitMs: pool.DATABASE_POOL_TIMEOUT_MS,
    tooLong: () => unavailableError(what),
  });
}
