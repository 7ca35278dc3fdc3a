import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { newPublicId } from '@formline/ids';
import type { Region } from '@formline/contracts';
import { createGlobalDatabase, type GlobalDb, type GlobalPrismaClient } from '@formline/db';
import { parseFormDefinition } from '@formline/form-definition';
import { databaseUrl, testInfra } from './test-infra';

export function testGlobalDatabase(): GlobalPrismaClient {
  return createGlobalDatabase(databaseUrl(testInfra(), 'formline_global'));
}

export interface TestAccount {
  accountId: string;
  region: Region;
  /** Unique to the account; with `password`, its owner signs in with them (HTTP Basic). */
  email: string;
  password?: string;
  workspaceId: string;
  token: string;
  formId: string;
}

// A fresh account in a region, with a token holding every scope and one form;
// with a password, its owner can also sign in.
export async function createTestAccount(
  db: GlobalPrismaClient,
  region: Region,
  options: { password?: string; language?: string } = {},
): Promise<TestAccount> {
  const suffix = newPublicId(10).toLowerCase();
  const email = `test-${suffix}@example.com`;
  const { accountId, defaultWorkspaceId: workspaceId } = await createAccount(db, {
    alias: `test-${suffix}`,
    email,
    region,
    language: options.language,
    password: options.password,
  });
  const token = await mintPersonalAccessToken(db, { accountId, name: 'test' });
  const formId = await createTestForm(db, { accountId, workspaceId, title: 'Test form' });
  return { accountId, region, email, password: options.password, workspaceId, token, formId };
}

// A form stored as the global service stores it (a normalised definition).
export async function createTestForm(
  db: GlobalPrismaClient,
  form: { accountId: string; workspaceId: string; title: string; definition?: Record<string, unknown> },
): Promise<string> {
  const formId = newPublicId();
  const { definition } = parseFormDefinition({ title: form.title, ...form.definition });
  await db.form.create({
    data: {
      id: formId,
      accountId: form.accountId,
      workspaceId: form.workspaceId,
      title: definition.title,
      definition: definition as unknown as GlobalDb.Prisma.InputJsonValue,
    },
  });
  return formId;
}
