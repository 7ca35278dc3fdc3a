import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { regions, type Region } from '@formline/contracts';
import type { GlobalDb, GlobalPrismaClient } from '@formline/db';
import { parseFormDefinition } from '@formline/form-definition';
import { hashAccessToken } from '@formline/tokens';
import { demoFormDefinition } from './demo-form';

export interface DemoAccount {
  region: Region;
  accountId: string;
  formId: string;
  token: string;
}

// One demo account per region, each with a token and a form. Idempotent: the
// tokens are kept in a local file (never committed) so a restart prints the
// same ones; a token whose hash is gone from the database is minted again.
export async function seedDemo(db: GlobalPrismaClient, tokensFile: string): Promise<DemoAccount[]> {
  const known = (existsSync(tokensFile) ? JSON.parse(readFileSync(tokensFile, 'utf8')) : {}) as Partial<
    Record<Region, string>
  >;
  const demo: DemoAccount[] = [];
  for (const region of regions) {
    const accountId = `demo-${region}`;
    const formId = `demo${region.toUpperCase()}01`;
    if (!(await db.account.findUnique({ where: { id: accountId } }))) {
      await createAccount(db, {
        id: accountId,
        alias: `demo-${region}`,
        email: `demo-${region}@example.com`,
        region,
      });
    }
    const { definition } = parseFormDefinition(
      demoFormDefinition(`Customer feedback (${region.toUpperCase()} demo)`),
    );
    await db.form.upsert({
      where: { id: formId },
      create: {
        id: formId,
        accountId,
        workspaceId: `${accountId}-default`,
        title: definition.title,
        definition: definition as unknown as GlobalDb.Prisma.InputJsonValue,
      },
      update: {},
    });
    let token = known[region];
    const stored =
      token && (await db.personalAccessToken.findUnique({ where: { tokenHash: hashAccessToken(token) } }));
    if (!token || !stored) token = await mintPersonalAccessToken(db, { accountId, name: 'demo' });
    known[region] = token;
    demo.push({ region, accountId, formId, token });
  }
  writeFileSync(tokensFile, JSON.stringify(known, null, 2), { mode: 0o600 });
  return demo;
}
