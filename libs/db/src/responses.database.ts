import type pg from 'pg';
import { type DatabasePoolSettings, keyedPoolOf, sqlPoolOf, withSqlPool } from './database-pool';
import { PrismaClient } from './generated/responses/client';

export { PrismaClient as ResponsesPrismaClient } from './generated/responses/client';
export * as ResponsesDb from './generated/responses/client';

// A region's responses database, owned by that region's responses service.
export function createResponsesDatabase(url: string, pool?: Partial<DatabasePoolSettings>): PrismaClient {
  return withSqlPool(url, pool, (adapter) => new PrismaClient({ adapter }));
}

// Prisma's connection pool of a client made by createResponsesDatabase, for plain SQL that reads much.
export function responsesSqlPool(client: PrismaClient): pg.Pool {
  return sqlPoolOf(client);
}

// The pool of the keyed statements (database-pool.ts, keyedPlans) of a client
// made by createResponsesDatabase: plain SQL that looks rows up by their keys.
export function responsesKeyedPool(client: PrismaClient): pg.Pool {
  return keyedPoolOf(client);
}
