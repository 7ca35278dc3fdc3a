import { apiScopes, type Region } from '@formline/contracts';
import { newPublicId } from '@formline/ids';
import type { GlobalPrismaClient } from '@formline/db';
import { generatePersonalAccessToken, hashAccessToken, hashPassword } from '@formline/tokens';

// Operator-side provisioning of the global database: accounts (with their
// default workspace) and personal access tokens. Used by the demo seed, the
// admin command and the test fixtures; the API never reaches it.

// Every scope a personal access token can hold (Typeform's names).
export const allScopes: string[] = [...apiScopes];

export interface NewAccount {
  id?: string;
  alias: string;
  email: string;
  region: Region;
  language?: string;
  /** Lets the owner sign in (OAuth consent, token management); stored as a scrypt hash. */
  password?: string;
}

export interface ProvisionedAccount {
  accountId: string;
  defaultWorkspaceId: string;
}

export async function createAccount(
  db: GlobalPrismaClient,
  account: NewAccount,
): Promise<ProvisionedAccount> {
  const accountId = account.id ?? newPublicId(12);
  const defaultWorkspaceId = `${accountId}-default`;
  await db.$transaction([
    db.account.create({
      data: {
        id: accountId,
        alias: account.alias,
        email: account.email.trim().toLowerCase(),
        region: account.region,
        language: account.language ?? 'en',
        passwordHash: account.password ? await hashPassword(account.password) : null,
      },
    }),
    db.workspace.create({
      data: { id: defaultWorkspaceId, accountId, name: 'My workspace', isDefault: true },
    }),
  ]);
  return { accountId, defaultWorkspaceId };
}

export interface NewToken {
  accountId: string;
  name: string;
  scopes?: string[];
  expiresAt?: Date;
}

// Returns the token once; only its hash is stored.
export async function mintPersonalAccessToken(db: GlobalPrismaClient, token: NewToken): Promise<string> {
  const value = generatePersonalAccessToken();
  await db.personalAccessToken.create({
    data: {
      id: newPublicId(16),
      accountId: token.accountId,
      name: token.name,
      tokenHash: hashAccessToken(value),
      scopes: token.scopes ?? allScopes,
      expiresAt: token.expiresAt,
    },
  });
  return value;
}
