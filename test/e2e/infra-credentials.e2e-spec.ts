import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, nkeys } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { type AppName, readinessStatus } from '@formline/stack';
import { callApi, eventually, freePort, TestNatsServer, useTestRegions } from '@formline/testing';

// Redis and NATS inside the cluster as production runs them: Redis
// asks for a password and speaks only TLS, NATS asks for a user and password
// and speaks only TLS, both with a certificate of a private CA. Every app of
// a region gets there through its config alone (REDIS_PASSWORD,
// REDIS_TLS_CA_FILE, NATS_USER, NATS_PASSWORD, NATS_TLS_CA_FILE), a submission
// is delivered, and the gateway's rate limits count in that Redis. A wrong
// Redis password leaves an app running, not ready (the gateway: degraded), and
// saying why. NATS tokens and nkeys get a `forms` process on the bus too; a
// wrong nkey does not, and its log says why.
describe('Redis and NATS with credentials and TLS', () => {
  const redisPassword = 'a-long-redis-password';
  const natsCredentials = { NATS_USER: 'formline', NATS_PASSWORD: 'a-long-nats-password' };
  const {
    regions,
    receiver,
    nats,
    redis,
    tls,
    launchApp,
    scratchDir: dir,
    accounts,
  } = useTestRegions({
    regions: ['us'],
    receiver: true,
    privateNats: { args: ['--user', natsCredentials.NATS_USER, '--pass', natsCredentials.NATS_PASSWORD] },
    privateRedis: { args: ['--requirepass', redisPassword] },
    tls: true,
    extraEnv: ({ tls }) => ({
      ...natsCredentials,
      NATS_TLS_CA_FILE: tls.certFile,
      REDIS_PASSWORD: redisPassword,
      REDIS_TLS_CA_FILE: tls.certFile,
    }),
    accounts: { account: 'us' },
  });
  const { account } = accounts;
  // NATS servers a test starts on its own.
  const servers: TestNatsServer[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  const protectedRedis = (password?: string) =>
    new Redis(redis.url, {
      password,
      tls: { ca: readFileSync(tls.certFile) },
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });

  it('has servers that really ask for credentials and TLS', async () => {
    const anonymous = protectedRedis();
    anonymous.on('error', () => undefined);
    await expect(anonymous.ping()).rejects.toThrow(/NOAUTH/);
    anonymous.disconnect();
    const plain = new Redis(redis.url.replace('rediss:', 'redis:'), {
      password: redisPassword,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    plain.on('error', () => undefined);
    await expect(plain.ping()).rejects.toThrow();
    plain.disconnect();
    await expect(
      connect({ servers: nats.url, reconnect: false, tls: { caFile: tls.certFile } }),
    ).rejects.toThrow(/authorization/i);
    await expect(
      connect({ servers: nats.url, reconnect: false, ...userAndPassword(), tls: null }),
    ).rejects.toThrow();
  });

  it('runs every app of the region on them: ready, a submission delivered, rate limits counted there', async () => {
    const stack = regions.stacks.us!;
    for (const app of stack.apps.keys())
      expect({ app, ready: await readinessStatus(stack.settings.opsPorts[app]) }).toEqual({
        app,
        ready: 200,
      });
    // The gateway counts in the shared Redis, not per replica.
    expect((await readiness(stack.settings.opsPorts.gateway)).checks).toMatchObject({ redis: 'up' });

    const base = regions.baseUrl('us');
    const hook = await callApi(`${base}/forms/${account.formId}/webhooks/tls`, {
      token: account.token,
      method: 'PUT',
      body: { url: receiver.url('/tls'), enabled: true },
    });
    expect(hook.status).toBe(200);
    const submitted = await callApi(`${base}/forms/${account.formId}/submissions`, {
      method: 'POST',
      body: { answers: [] },
    });
    expect(submitted.status).toBe(201);
    const [delivery] = await receiver.until('/tls', (requests) => requests.length >= 1, 60_000);
    expect(JSON.parse(delivery.body).form_response.token).toBe(submitted.body.token);

    const client = protectedRedis(redisPassword);
    const keys = await client.keys('*');
    client.disconnect();
    expect(keys.some((key) => key.startsWith('ratelimit:'))).toBe(true);
    expect(keys.some((key) => key.startsWith('bull:'))).toBe(true);
  });

  it.each(['gateway', 'webhooks', 'dispatcher'] as const)(
    'keeps %s running with a wrong Redis password: not ready (the gateway degraded), saying why',
    async (app) => {
      const lines: string[] = [];
      const outsider = await launch(app, { REDIS_PASSWORD: 'wrong' }, lines);
      const port = outsider.options.opsPort;
      const expected = app === 'gateway' ? { status: 'degraded' } : { status: 'unavailable' };
      const report = await eventually(
        () => readiness(port),
        (body) => body.checks?.redis === 'down' && body.status === expected.status,
        60_000,
        250,
      );
      expect(report).toMatchObject({ ...expected, checks: { redis: 'down' } });
      expect(await readinessStatus(port)).toBe(app === 'gateway' ? 200 : 503);
      // Still running a few seconds on: not a crash loop.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(outsider.hasExited()).toBe(false);
      expect(lines.some((line) => /WRONGPASS/.test(line) && /REDIS_PASSWORD/.test(line))).toBe(true);
      expect(lines.some((line) => line.includes(redisPassword) || line.includes('"wrong"'))).toBe(false);
      await outsider.stop();
    },
  );

  it('gets an app on a NATS that takes a token, or an nkey, and keeps it off with a wrong one', async () => {
    const token = 'a-long-nats-token';
    const user = nkeys.createUser();
    const stranger = nkeys.createUser();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    const config = path.join(dir, 'nkey.conf');
    writeFileSync(config, `authorization { users = [ { nkey: ${user.getPublicKey()} } ] }\n`);
    const tokenServer = new TestNatsServer(await freePort(), path.join(dir, 'nats-token'), ['--auth', token]);
    const nkeyServer = new TestNatsServer(await freePort(), path.join(dir, 'nats-nkey'), ['-c', config]);
    servers.push(tokenServer, nkeyServer);
    await Promise.all([tokenServer.start(), nkeyServer.start()]);

    const strangerLines: string[] = [];
    const on = (server: TestNatsServer, auth: Record<string, string>, lines: string[] = []) =>
      launch('global', { NATS_URL: server.url, ...auth }, lines, [
        'NATS_USER',
        'NATS_PASSWORD',
        'NATS_TLS_CA_FILE',
      ]);
    const [byToken, byNkey, byStranger] = await Promise.all([
      on(tokenServer, { NATS_TOKEN: token }),
      on(nkeyServer, { NATS_NKEY_SEED: decode(user.getSeed()) }),
      on(nkeyServer, { NATS_NKEY_SEED: decode(stranger.getSeed()) }, strangerLines),
    ]);
    await Promise.all([byToken.waitReady(60_000), byNkey.waitReady(60_000)]);
    // A wrong nkey never gets on the bus, and the log says why (the process
    // exits: see docs/security.md on NATS credentials).
    await eventually(
      () => strangerLines.some((line) => /authorization/i.test(line)),
      (said) => said,
      30_000,
      250,
    );
    expect(await readinessStatus(byStranger.options.opsPort)).not.toBe(200);
    expect(strangerLines.some((line) => /authorization/i.test(line))).toBe(true);
    await Promise.all([byToken, byNkey, byStranger].map((app) => app.stop()));
  });

  function userAndPassword() {
    return { user: natsCredentials.NATS_USER, pass: natsCredentials.NATS_PASSWORD };
  }

  // One more process of an app of the region, with some variables changed
  // (and some removed), on its own ops (and HTTP) port.
  function launch(
    app: AppName,
    changes: Record<string, string>,
    lines: string[],
    removed: readonly string[] = [],
  ) {
    return launchApp('us', app, { env: changes, without: removed, onLine: (line) => lines.push(line) });
  }
});

async function readiness(opsPort: number): Promise<{ status?: string; checks?: Record<string, string> }> {
  try {
    const response = await fetch(`http://127.0.0.1:${opsPort}/health/ready`);
    return (await response.json()) as { status?: string; checks?: Record<string, string> };
  } catch {
    return {};
  }
}
