import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { regions, type Region } from '@formline/contracts';
import type { GlobalDb, GlobalPrismaClient } from '@formline/db';
import { parseFormDefinition } from '@formline/form-definition';
import { hashAccessToken, hashPassword } from '@formline/tokens';
import { demoFormDefinition } from './demo-form';

export interface DemoAccount {
  region: Region;
  accountId: string;
  formId: string;
  token: string;
  /** The account's sign-in, for the console and the OAuth sign-in page. */
  email: string;
  password: string;
}

type KnownSecrets = Partial<Record<Region, string>> & { passwords?: Partial<Record<Region, string>> };

// One demo account per region, each with a token, a password and a form.
// Idempotent: the tokens and passwords are kept in a local file (never
// committed) so a restart prints the same ones; a token whose hash is gone
// from the database is minted again, and a password is made (random, as the
// local stack may listen beyond this machine) when the file or the account
// has none.
export async function seedDemo(db: GlobalPrismaClient, tokensFile: string): Promise<DemoAccount[]> {
  const known = (existsSync(tokensFile) ? JSON.parse(readFileSync(tokensFile, 'utf8')) : {}) as KnownSecrets;
  const passwords = { ...known.passwords };
  const demo: DemoAccount[] = [];
  for (const region of regions) {
    const accountId = `demo-${region}`;
    const formId = `demo${region.toUpperCase()}01`;
    const email = `demo-${region}@example.com`;
    const account = await db.account.findUnique({ where: { id: accountId }, select: { passwordHash: true } });
    let password = passwords[region];
    if (!account || !account.passwordHash || !password) {
      password ??= randomBytes(12).toString('base64url');
      passwords[region] = password;
    }
    if (!account) {
      await createAccount(db, { id: accountId, alias: `demo-${region}`, email, region, password });
    } else if (!account.passwordHash || known.passwords?.[region] !== password) {
      await db.account.update({
        where: { id: accountId },
        data: { passwordHash: await hashPassword(password) },
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
    demo.push({ region, accountId, formId, token, email, password });
  }
  known.passwords = passwords;
  writeFileSync(tokensFile, JSON.stringify(known, null, 2), { mode: 0o600 });
  // `mode` applies only to a new file: one written before passwords were kept tightens too.
  chmodSync(tokensFile, 0o600);
  return demo;
}
