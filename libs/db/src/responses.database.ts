import type pg from 'pg';
import { type DatabasePoolSettings, sqlPoolOf, withSqlPool } from './database-pool';
import { PrismaClient } from './generated/responses/client';

export { PrismaClient as ResponsesPrismaClient } from './generated/responses/client';
export * as ResponsesDb from './generated/responses/client';

// A region's responses database, owned by that region's responses service.
export function createResponsesDatabase(url: string, pool?: Partial<DatabasePoolSettings>): PrismaClient {
  return withSqlPool(url, pool, (adapter) => new PrismaClient({ adapter }));
}

// The connection pool of a client made by createResponsesDatabase, for plain SQL.
export function responsesSqlPool(client: PrismaClient): pg.Pool {
  return sqlPoolOf(client);
}
