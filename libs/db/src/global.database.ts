import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/global/client';

export { PrismaClient as GlobalPrismaClient } from './generated/global/client';
export * as GlobalDb from './generated/global/client';

// The global database (accounts, tokens, workspaces, forms), owned by the forms service.
export function createGlobalDatabase(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}
