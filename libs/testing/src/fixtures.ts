import { createAccount, mintPersonalAccessToken, newId } from '@formline/admin';
import type { Region } from '@formline/contracts';
import { createGlobalDatabase, type GlobalPrismaClient } from '@formline/db';
import { databaseUrl, testInfra } from './test-infra';

export function testGlobalDatabase(): GlobalPrismaClient {
  return createGlobalDatabase(databaseUrl(testInfra(), 'formline_global'));
}

export interface TestAccount {
  accountId: string;
  region: Region;
  token: string;
  formId: string;
}

// A fresh account in a region, with a token holding every scope and one form.
export async function createTestAccount(db: GlobalPrismaClient, region: Region): Promise<TestAccount> {
  const suffix = newId(10).toLowerCase();
  const { accountId, defaultWorkspaceId } = await createAccount(db, {
    alias: `test-${suffix}`,
    email: `test-${suffix}@example.com`,
    region,
  });
  const token = await mintPersonalAccessToken(db, { accountId, name: 'test' });
  const formId = newId();
  await db.form.create({
    data: {
      id: formId,
      accountId,
      workspaceId: defaultWorkspaceId,
      title: 'Test form',
      definition: { title: 'Test form', fields: [] },
    },
  });
  return { accountId, region, token, formId };
}
