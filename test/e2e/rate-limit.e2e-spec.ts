import path from 'node:path';
import { createAccount, mintPersonalAccessToken } from '@formline/admin';
import { newPublicId } from '@formline/ids';
import { AppProcess, appEnvironment } from '@formline/stack';
import {
  basicAuthorization,
  callApi,
  createTestAccount,
  freePort,
  startTestRegions,
  testGlobalDatabase,
  type TestAccount,
  type TestRegions,
} from '@formline/testing';

const root = path.resolve(__dirname, '../..');

// Per-token rate limits, counted in the region's Redis: two gateway replicas
// share one budget; over it, 429 RATE_LIMITED with Retry-After; after the
// window, service again. Failed sign-ins are limited per email the same way.
describe('rate limits', () => {
  const db = testGlobalDatabase();
  let regions: TestRegions;
  let replica: AppProcess;
  let replicaUrl: string;
  let account: TestAccount;

  beforeAll(async () => {
    account = await createTestAccount(db, 'us');
    regions = await startTestRegions({
      name: 'rate-limit',
      regions: ['us'],
      apps: ['gateway', 'forms'],
      extraEnv: {
        RATE_LIMIT_REQUESTS: '3',
        RATE_LIMIT_WINDOW_MS: '3000',
        LOGIN_RATE_LIMIT_ATTEMPTS: '2',
        // The window starts at the first attempt (counted before the password
        // check, given back when right): room for four sign-ins on a busy machine.
        LOGIN_RATE_LIMIT_WINDOW_MS: '8000',
      },
    });
    // A second gateway of the same region: same NATS, same Redis, its own port.
    const settings = regions.stacks.us!.settings;
    const httpPort = await freePort();
    const opsPort = await freePort();
    replicaUrl = `http://127.0.0.1:${httpPort}`;
    replica = new AppProcess({
      label: 'us gateway-2',
      entry: path.join(root, 'dist/apps/gateway/src/main.js'),
      env: appEnvironment('gateway', {
        ...settings,
        httpPort,
        opsPorts: { ...settings.opsPorts, gateway: opsPort },
      }),
      opsPort,
      onLine: () => undefined,
    });
    await replica.waitReady();
  });

  afterAll(async () => {
    await replica?.stop();
    await regions?.stop();
    await db.$disconnect();
  });

  const readForm = (base: string, token = account.token) =>
    callApi(`${base}/forms/${account.formId}`, { token });

  it('shares one budget per token across replicas, answers 429 with Retry-After, and recovers', async () => {
    const first = regions.baseUrl('us');
    expect((await readForm(first)).status).toBe(200);
    expect((await readForm(replicaUrl)).status).toBe(200);
    expect((await readForm(first)).status).toBe(200);
    const limited = await readForm(replicaUrl);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'RATE_LIMITED', description: expect.any(String) });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect((await readForm(first)).status).toBe(429);

    // Another token of the same account has its own budget.
    const other = await mintPersonalAccessToken(db, { accountId: account.accountId, name: 'other' });
    expect((await readForm(first, other)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    expect((await readForm(replicaUrl)).status).toBe(200);
  });

  it('refuses sign-ins for an email after too many failures, even with the right password, until the window ends', async () => {
    const owner = { email: `rl-${newPublicId(8).toLowerCase()}@example.com`, password: 'right-password-1' };
    await createAccount(db, { alias: 'rl', region: 'us', ...owner });
    const list = (password: string, base = regions.baseUrl('us')) =>
      callApi(`${base}/tokens`, { headers: basicAuthorization(owner.email, password) });
    expect((await list(owner.password)).status).toBe(200); // successes are not counted
    expect((await list('wrong-1')).status).toBe(401);
    expect((await list('wrong-2', replicaUrl)).status).toBe(401);
    const refused = await list(owner.password);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    expect((await list(owner.password, replicaUrl)).status).toBe(200);
  });
});
