import { createPrismaAdapter, type DatabasePoolSettings } from './database-pool';
import { PrismaClient } from './generated/responses/client';

export { PrismaClient as ResponsesPrismaClient } from './generated/responses/client';
export * as ResponsesDb from './generated/responses/client';

// A region's responses database, owned by that region's responses service.
export function createResponsesDatabase(url: string, pool?: Partial<DatabasePoolSettings>): PrismaClient {
  return new PrismaClient({ adapter: createPrismaAdapter(url, pool) });
}
