import type { Region } from '@formline/contracts';
import { createTestAccount, testGlobalDatabase, type TestAccount } from './fixtures';
import { type ApiResponse, callApi } from './http';
import { startTestRegions, type TestRegions, type TestRegionsOptions } from './test-regions';

export interface E2eFixtureOptions<Name extends string> extends TestRegionsOptions {
  /** Fresh accounts by name (a token with every scope, one form), each in its region. */
  accounts?: Record<Name, Region>;
}

export interface E2eFixture<Name extends string> {
  db: ReturnType<typeof testGlobalDatabase>;
  /** The running regions (once the describe block's beforeAll has run). */
  readonly regions: TestRegions;
  /** The accounts by name, filled in by beforeAll. */
  accounts: Record<Name, TestAccount>;
  baseUrl: (region: Region) => string;
  /** One call with the account's token, to its own region unless told otherwise. */
  api: (
    account: TestAccount,
    method: string,
    path: string,
    body?: unknown,
    region?: Region,
  ) => Promise<ApiResponse>;
}

// The setup that e2e specs used to declare each on its own: the global
// database, fresh accounts, the regions' apps (both regions at once), an
// `api` client, and all of it stopped after the spec. Call it at the top of
// a `describe`: it registers that block's beforeAll and afterAll.
export function useTestRegions<Name extends string = never>(
  options: E2eFixtureOptions<Name>,
): E2eFixture<Name> {
  const { accounts: accountRegions, ...regionOptions } = options;
  const db = testGlobalDatabase();
  const accounts = {} as Record<Name, TestAccount>;
  let regions: TestRegions | undefined;

  beforeAll(async () => {
    const entries = Object.entries(accountRegions ?? {}) as [Name, Region][];
    for (const [name, region] of entries) accounts[name] = await createTestAccount(db, region);
    regions = await startTestRegions(regionOptions);
  });

  afterAll(async () => {
    await regions?.stop();
    await db.$disconnect();
  });

  const running = (): TestRegions => {
    if (!regions) throw new Error('the regions start in beforeAll: use the fixture in tests and hooks');
    return regions;
  };
  return {
    db,
    get regions() {
      return running();
    },
    accounts,
    baseUrl: (region) => running().baseUrl(region),
    api: (account, method, path, body, region = account.region) =>
      callApi(`${running().baseUrl(region)}${path}`, { token: account.token, method, body }),
  };
}
