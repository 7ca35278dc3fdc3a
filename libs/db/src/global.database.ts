import { createPrismaAdapter, type DatabasePoolSettings } from './database-pool';
import { PrismaClient } from './generated/global/client';

export { PrismaClient as GlobalPrismaClient } from './generated/global/client';
export * as GlobalDb from './generated/global/client';

// The global database (accounts, tokens, workspaces, forms), owned by the global service.
export function createGlobalDatabase(url: string, pool?: Partial<DatabasePoolSettings>): PrismaClient {
  return new PrismaClient({ adapter: createPrismaAdapter(url, pool) });
}
