import { createAccount } from '@formline/admin';
import type { Region } from '@formline/contracts';
import type { GlobalPrismaClient } from '@formline/db';
import { emptyTables, scratchGlobalDatabase, type ScratchDatabase } from './test-database';

export interface ScratchAccounts<Alias extends string> {
  /** The scratch global database's client, from the spec file's beforeAll on. */
  readonly client: GlobalPrismaClient;
  /** Each alias's account id, made afresh before each test. */
  readonly ids: Readonly<Record<Alias, string>>;
}

// What a repository spec of the global database starts each test from: a
// scratch database of its own for the spec file (dropped after it), emptied
// before each test, holding the accounts named here (alias → region, email
// `{alias}@example.com`). Called at the top of a describe, its hooks run
// before the spec's own.
export function useScratchAccounts<Alias extends string>(
  accounts: Record<Alias, Region>,
): ScratchAccounts<Alias> {
  let database: ScratchDatabase<GlobalPrismaClient> | undefined;
  const ids = {} as Record<Alias, string>;
  beforeAll(async () => {
    database = await scratchGlobalDatabase();
  });
  afterAll(() => database?.dispose());
  beforeEach(async () => {
    const client = database!.client;
    await emptyTables(client);
    for (const alias of Object.keys(accounts) as Alias[]) {
      ({ accountId: ids[alias] } = await createAccount(client, {
        alias,
        email: `${alias}@example.com`,
        region: accounts[alias],
      }));
    }
  });
  return {
    get client() {
      if (!database) throw new Error('The scratch database exists from the spec file’s beforeAll on.');
      return database.client;
    },
    ids,
  };
}
