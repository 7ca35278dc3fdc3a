import { randomInt } from 'node:crypto';
import Redis from 'ioredis';
import { createAccount } from '@formline/admin';
import { newPublicId } from '@formline/ids';
import type { AppProcess } from '@formline/stack';
import { basicAuthorization, callApi, eventually, testInfra, useTestRegions } from '@formline/testing';

// What one hostile client can do to a region: anonymous submissions limited per
// client address and per form; password guesses counted before they are
// checked, per email and per address, parallel ones included; webhooks only
// over https to public addresses, checked again at delivery.
//
// The gateway trusts 127.0.0.1 as its proxy here, so each test speaks for
// clients of its own by X-Forwarded-For; a second gateway trusts no proxy.
describe('abuse limits', () => {
  const fixture = useTestRegions({
    regions: ['us'],
    receiver: true,
    extraEnv: {
      TRUSTED_PROXIES: '127.0.0.1',
      SUBMISSION_RATE_LIMIT_PER_ADDRESS: '3',
      SUBMISSION_RATE_LIMIT_PER_FORM: '5',
      SUBMISSION_RATE_LIMIT_WINDOW_MS: '6000',
      LOGIN_RATE_LIMIT_ATTEMPTS: '3',
      LOGIN_RATE_LIMIT_ADDRESS_ATTEMPTS: '4',
      LOGIN_RATE_LIMIT_WINDOW_MS: '60000',
      AUTH_FAILURE_RATE_LIMIT_PER_ADDRESS: '5',
      AUTH_FAILURE_RATE_LIMIT_WINDOW_MS: '6000',
      WEBHOOK_RETRY_SCHEDULE_MS: '60000',
      WEBHOOK_RETRY_JITTER: '0',
      // The parallel sign-ins' password checks run one after another in the
      // global service; on a machine busy with another spec's apps, three of
      // them took longer than the default 5 s the gateway waits for a reply.
      NATS_REQUEST_TIMEOUT_MS: '30000',
    },
    accounts: { alice: 'us' },
  });
  const { db, regions, receiver, launchApp, accounts } = fixture;
  const webhooksDb = fixture.webhooksDb.us;
  const { alice } = accounts;
  let untrusting: AppProcess;
  let untrustingUrl: string;

  beforeAll(async () => {
    untrusting = await launchApp('us', 'gateway', { env: { TRUSTED_PROXIES: '' } });
    untrustingUrl = `http://127.0.0.1:${untrusting.options.env.HTTP_PORT}`;
    await untrusting.waitReady();
  });

  const base = () => regions.baseUrl('us');
  // Alice's own calls come from an address of this run's: the region's Redis
  // still counts what other specs' made-up tokens did from 127.0.0.1, and
  // this gateway allows an address only 5 failed authentications.
  const aliceAddress = `198.18.${randomInt(256)}.${1 + randomInt(254)}`;
  const api = (method: string, path: string, body?: unknown) =>
    callApi(`${base()}${path}`, {
      token: alice.token,
      method,
      body,
      headers: { 'x-forwarded-for': aliceAddress },
    });
  const newForm = async (): Promise<string> =>
    (await api('POST', '/forms', { title: 'Limited', fields: [{ ref: 'n', title: 'N', type: 'number' }] }))
      .body.id;
  const submit = (formId: string, client: string, options: { token?: string; url?: string } = {}) =>
    callApi(`${options.url ?? base()}/forms/${formId}/submissions`, {
      method: 'POST',
      token: options.token,
      headers: { 'x-forwarded-for': client },
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: 1 }] },
    });
  const expectRateLimited = (response: Awaited<ReturnType<typeof callApi>>, description: RegExp) => {
    expect(response.status).toBe(429);
    expect(response.body).toEqual({ code: 'RATE_LIMITED', description: expect.stringMatching(description) });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(6);
    return retryAfter;
  };

  describe('anonymous submissions', () => {
    // That a window ends is the rate limiter's integration spec's.
    it('are limited per client address, across forms', async () => {
      const [first, second] = [await newForm(), await newForm()];
      const client = '203.0.113.10';
      expect((await submit(first, client)).status).toBe(201);
      expect((await submit(second, client)).status).toBe(201);
      expect((await submit(first, client)).status).toBe(201);
      expectRateLimited(await submit(second, client), /from this address/);
      // Another address, and the form's owner with a token, are not held back by it.
      expect((await submit(second, '203.0.113.11')).status).toBe(201);
      expect((await submit(second, client, { token: alice.token })).status).toBe(201);
    });

    it('are limited per form, whatever the addresses; other forms still take theirs', async () => {
      const [busy, quiet] = [await newForm(), await newForm()];
      for (let client = 1; client <= 5; client++)
        expect((await submit(busy, `198.51.100.${client}`)).status).toBe(201);
      expectRateLimited(await submit(busy, '198.51.100.6'), /to this form/);
      expect((await submit(quiet, '198.51.100.6')).status).toBe(201);
    });

    it('believe X-Forwarded-For only from a trusted proxy', async () => {
      const formId = await newForm();
      // The test profile's Redis serves every spec, and earlier specs submitted
      // from 127.0.0.1 under their own (large) budget: start this address afresh.
      const redis = new Redis(testInfra().redisUrl.us);
      await redis.del('ratelimit:submit-address:127.0.0.1');
      await redis.quit();
      // The untrusting gateway sees every request as 127.0.0.1's, whatever it claims.
      for (let client = 1; client <= 3; client++)
        expect((await submit(formId, `192.0.2.${client}`, { url: untrustingUrl })).status).toBe(201);
      expectRateLimited(await submit(formId, '192.0.2.4', { url: untrustingUrl }), /from this address/);
    });
  });

  describe('failed authentications', () => {
    const read = (formId: string, token: string, client: string) =>
      callApi(`${base()}/forms/${formId}`, { token, headers: { 'x-forwarded-for': client } });
    const madeUp = () => `tfp_${newPublicId(40)}`;

    it('are limited per client address, never holding back a valid token', async () => {
      const formId = await newForm();
      const client = `203.0.113.${200 + Math.floor(Math.random() * 50)}`;
      // The valid token is known (cached) before the address goes over its budget.
      expect((await read(formId, alice.token, client)).status).toBe(200);
      for (let attempt = 0; attempt < 5; attempt++) {
        const refused = await read(formId, madeUp(), client);
        expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_TOKEN']);
      }
      expectRateLimited(await read(formId, madeUp(), client), /failed authentications from this address/);
      // A token checked a moment ago as made up counts too.
      expectRateLimited(await read(formId, madeUp(), client), /failed authentications from this address/);
      expect((await read(formId, alice.token, client)).status).toBe(200);
      // Another address is not held back by it.
      expect((await read(formId, madeUp(), '203.0.113.199')).status).toBe(401);
    });
  });

  describe('sign-in', () => {
    const newOwner = async () => {
      const owner = {
        email: `abuse-${newPublicId(8).toLowerCase()}@example.com`,
        password: 'right-password-1',
      };
      await createAccount(db, { alias: 'abuse', region: 'us', ...owner });
      return owner;
    };
    const signIn = (email: string, password: string, client: string) =>
      callApi(`${base()}/tokens`, {
        headers: { ...basicAuthorization(email, password), 'x-forwarded-for': client },
      });

    it('counts parallel guesses before checking them: only the budget reaches the password check', async () => {
      const owner = await newOwner();
      // Ten guesses at once, each from its own address: the email's budget (3) holds.
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, guess) =>
          signIn(owner.email, `wrong-${guess}`, `203.0.113.${100 + guess}`),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([...Array(3).fill(401), ...Array(7).fill(429)]);
      // Now even the right password waits for the window.
      expectRateLimitedLong(await signIn(owner.email, owner.password, '203.0.113.99'), /for this account/);
    });

    it('has a budget per client address, across emails, and gives right sign-ins their count back', async () => {
      const client = '203.0.113.200';
      const owners = await Promise.all(Array.from({ length: 5 }, () => newOwner()));
      // Right sign-ins do not use up the address's budget (4).
      for (let index = 0; index < 6; index++)
        expect((await signIn(owners[0].email, owners[0].password, client)).status).toBe(200);
      for (const owner of owners.slice(0, 4))
        expect((await signIn(owner.email, 'wrong', client)).status).toBe(401);
      expectRateLimitedLong(await signIn(owners[4].email, owners[4].password, client), /from this address/);
      // Another address signs in to the same account.
      expect((await signIn(owners[4].email, owners[4].password, '203.0.113.201')).status).toBe(200);
    });

    const expectRateLimitedLong = (response: Awaited<ReturnType<typeof callApi>>, description: RegExp) => {
      expect(response.status).toBe(429);
      expect(response.body).toEqual({
        code: 'RATE_LIMITED',
        description: expect.stringMatching(description),
      });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    };
  });

  describe('webhook addresses', () => {
    it('takes https only, unless the host is allow-listed', async () => {
      const formId = await newForm();
      const plain = await api('PUT', `/forms/${formId}/webhooks/plain`, { url: 'http://example.com/hook' });
      expect(plain.status).toBe(400);
      expect(plain.body.code).toBe('VALIDATION_ERROR');
      expect(plain.body.details).toEqual([
        expect.objectContaining({ field: 'url', description: expect.stringMatching(/https/) }),
      ]);
      expect(
        (await api('PUT', `/forms/${formId}/webhooks/secure`, { url: 'https://example.com/hook' })).status,
      ).toBe(200);
      // 127.0.0.1 is allow-listed in tests: plain http to it is taken.
      expect(
        (await api('PUT', `/forms/${formId}/webhooks/local`, { url: receiver.url('/local') })).status,
      ).toBe(200);
    });

    it.each(['[::7f00:1]', '[::ffff:0:7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]', '[fec0::1]'])(
      'refuses %s when saved, without echoing an address it resolved',
      async (host) => {
        const formId = await newForm();
        const refused = await api('PUT', `/forms/${formId}/webhooks/inside`, { url: `https://${host}/hook` });
        expect(refused.status).toBe(400);
        expect(refused.body.details[0].description).toBe(
          'the url points to an internal, private or reserved address',
        );
      },
    );

    it('refuses at delivery an address that turned internal since it was saved, and says so without the address', async () => {
      const formId = await newForm();
      const hook = (
        await api('PUT', `/forms/${formId}/webhooks/turned`, { url: receiver.url('/turned'), enabled: true })
      ).body;
      // As if the name now led to an IPv4-translated loopback address.
      const port = new URL(receiver.url('/turned')).port;
      await webhooksDb.webhook.update({
        where: { id: hook.id },
        data: { url: `https://[::ffff:0:7f00:1]:${port}/turned` },
      });
      expect((await submit(formId, '203.0.113.50')).status).toBe(201);
      const log = await eventually(
        () => api('GET', `/forms/${formId}/webhooks/turned/deliveries`),
        // An attempt reads `sending` until it ends.
        (response) => finishedAttempts(response.body.items[0]?.attempts) >= 1,
      );
      const attempt = log.body.items[0].attempts.at(-1);
      expect(attempt).toMatchObject({
        status_code: null,
        error: 'url refused: the url points to an internal, private or reserved address',
      });
      expect(receiver.at('/turned')).toHaveLength(0);
    });
  });
});

// Attempts that have ended: one reads `sending` from before its POST until
// the receiver answers (or its dispatcher is known to have died).
function finishedAttempts(attempts: { status: string }[] | undefined): number {
  return (attempts ?? []).filter((attempt) => attempt.status !== 'sending').length;
}
