import { createAccount } from '@formline/admin';
import type { GlobalPrismaClient } from '@formline/db';
import { emptyTables, scratchGlobalDatabase, type ScratchDatabase } from '@formline/testing';
import { verifyPassword } from '@formline/tokens';
import { AccountRepository } from './account.repository';

// AccountRepository against PostgreSQL: an account is found by its id for the
// profile and by its (lower-cased, unique) email for a sign-in, which reads
// only what the sign-in needs.
describe('AccountRepository against PostgreSQL', () => {
  let database: ScratchDatabase<GlobalPrismaClient>;
  let accounts: AccountRepository;

  beforeAll(async () => {
    database = await scratchGlobalDatabase();
    accounts = new AccountRepository(database.client);
  });
  afterAll(() => database?.dispose());
  beforeEach(() => emptyTables(database.client));

  it('finds an account by id, and nothing for an id no account has', async () => {
    const { accountId } = await createAccount(database.client, {
      alias: 'ada',
      email: 'Ada@Example.com',
      region: 'eu',
    });
    expect(await accounts.findById(accountId)).toMatchObject({
      id: accountId,
      alias: 'ada',
      email: 'ada@example.com',
      region: 'eu',
      language: 'en',
      passwordHash: null,
    });
    expect(await accounts.findById('no-such-account')).toBeNull();
  });

  it('finds the credentials of a sign-in by the stored email, and only them', async () => {
    const { accountId } = await createAccount(database.client, {
      alias: 'grace',
      email: 'grace@example.com',
      region: 'us',
      password: 'correct horse battery',
    });
    await createAccount(database.client, { alias: 'other', email: 'other@example.com', region: 'eu' });

    const credentials = await accounts.findCredentialsByEmail('grace@example.com');
    expect(Object.keys(credentials ?? {}).sort()).toEqual(['id', 'passwordHash', 'region']);
    expect(credentials).toMatchObject({ id: accountId, region: 'us' });
    expect(await verifyPassword('correct horse battery', credentials!.passwordHash!)).toBe(true);
    // Emails are stored lower-cased: the caller lower-cases before asking.
    expect(await accounts.findCredentialsByEmail('GRACE@example.com')).toBeNull();
    expect(await accounts.findCredentialsByEmail('nobody@example.com')).toBeNull();
    expect(await accounts.findCredentialsByEmail('other@example.com')).toMatchObject({ passwordHash: null });
  });
});
