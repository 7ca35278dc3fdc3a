import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { AppProcess, appEnvironment, readinessStatus } from '@formline/stack';
import {
  callApi,
  createTestAccount,
  freePort,
  startTestRegions,
  testGlobalDatabase,
  testInfra,
  type TestAccount,
  TestNatsServer,
  type TestRegions,
} from '@formline/testing';

const root = path.resolve(__dirname, '../..');

// NATS inside the cluster asks for credentials: the apps bring them from their
// config (NATS_USER, NATS_PASSWORD) and work as usual; an app without them, or
// with a wrong password, never gets on the bus.
describe('NATS with user and password', () => {
  const db = testGlobalDatabase();
  const credentials = { NATS_USER: 'formline', NATS_PASSWORD: 'a-long-nats-password' };
  let nats: TestNatsServer;
  let regions: TestRegions;
  let account: TestAccount;

  beforeAll(async () => {
    account = await createTestAccount(db, 'us');
    nats = new TestNatsServer(await freePort(), path.join(testInfra().dataDir, 'nats-auth'), [
      '--user',
      credentials.NATS_USER,
      '--pass',
      credentials.NATS_PASSWORD,
    ]);
    await nats.start();
    regions = await startTestRegions({
      name: 'nats-auth',
      regions: ['us'],
      apps: ['gateway', 'forms'],
      natsUrl: { us: nats.url },
      extraEnv: credentials,
    });
  });

  afterAll(async () => {
    await regions?.stop();
    await nats?.stop();
    await db.$disconnect();
  });

  it('refuses a client without credentials (the server really asks for them)', async () => {
    await expect(connect({ servers: nats.url, reconnect: false })).rejects.toThrow(/authorization/i);
  });

  it('carries requests between apps that bring their credentials', async () => {
    const form = await callApi(`${regions.baseUrl('us')}/forms/${account.formId}`, { token: account.token });
    expect(form.status).toBe(200);
    expect(form.body.id).toBe(account.formId);
  });

  it.each([
    ['without credentials', {}],
    ['with a wrong password', { ...credentials, NATS_PASSWORD: 'wrong' }],
  ])('keeps an app %s off the bus: never ready', async (_, given) => {
    const settings = regions.stacks.us!.settings;
    const opsPort = await freePort();
    const {
      NATS_USER: _user,
      NATS_PASSWORD: _password,
      ...env
    } = appEnvironment('forms', {
      ...settings,
      opsPorts: { ...settings.opsPorts, forms: opsPort },
    });
    const outsider = new AppProcess({
      label: 'us forms-outsider',
      entry: path.join(root, 'dist/apps/forms/src/main.js'),
      env: { ...env, ...given },
      opsPort,
      onLine: () => undefined,
    });
    try {
      await expect(outsider.waitReady(4000)).rejects.toThrow();
      expect(await readinessStatus(opsPort)).not.toBe(200);
    } finally {
      await outsider.stop();
    }
  });
});
