import { z } from 'zod';
import { databaseUrl, milliseconds, type SettingsOf } from '../setting.builders';

// Each process's connection pool, in the forms and responses services (libs/db
// takes it: databasePoolOf): a query that waits longer than the timeout
// for a free connection fails as 503 SERVICE_UNAVAILABLE (retry), not a hang.
export const databasePoolVars = {
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int()
    .min(2)
    .max(100)
    .default(10)
    .describe(
      "Connections each process keeps to its database at most, for Prisma's queries (at least 2: the global service's form writes hold at most half, each reading on the other half, and the responses service's deletions at most half, waiting on the media app). The responses, webhooks and dispatcher processes keep up to 4 more for the hot path's keyed statements.",
    ),
  DATABASE_POOL_TIMEOUT_MS: milliseconds(
    2000,
    'How long a query waits for a free connection before the request is answered 503 (retry later).',
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(
    15_000,
    "How long one SQL statement may run before PostgreSQL cancels it: past the services' request deadline, so it only stops work whose caller has gone.",
  ),
};

export type DatabasePoolGroupSettings = SettingsOf<typeof databasePoolVars>;

// The webhooks service (which saves webhooks and plans deliveries) and the
// dispatcher (which records every attempt): one database, each app saying
// what it keeps there (`.describe()` in its schema).
export const webhooksDatabaseVars = {
  WEBHOOKS_DATABASE_URL: databaseUrl("This region's webhooks database."),
};
