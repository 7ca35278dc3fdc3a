import { execFile } from 'node:child_process';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  callApi,
  databaseUrl,
  eventually,
  freePort,
  testInfra,
  testWebhookSecretKey,
  useTestRegions,
} from '@formline/testing';
import { SecretBox } from '@formline/webhook-delivery';

const run = promisify(execFile);

// The delivery pipeline's shape, end to end: many events planned at once,
// failures typed, and the webhook secret key rotated (several keys, the
// re-seal command). Paging the log and pruning it are the delivery
// repository's integration spec's (libs/webhook-delivery).
describe('webhook delivery pipeline', () => {
  const keyA = randomBytes(32).toString('base64');
  const keyB = randomBytes(32).toString('base64');
  const fixture = useTestRegions({
    regions: ['us'],
    receiver: true,
    extraEnv: {
      // Newest first; WEBHOOK_SECRET_KEY (the harness's) stays in the ring as `default`.
      WEBHOOK_SECRET_KEYS: `k2:${keyB},k1:${keyA}`,
      WEBHOOK_RETRY_SCHEDULE_MS: '600000',
    },
    accounts: { account: 'us' },
  });
  const { regions, receiver, accounts } = fixture;
  const webhooksDb = fixture.webhooksDb.us;
  const { account } = accounts;
  const webhooksUrl = databaseUrl(testInfra(), 'formline_webhooks_us');
  let burstForm: string;

  const api = (method: string, url: string, body?: unknown) =>
    callApi(`${regions.baseUrl('us')}${url}`, { token: account.token, method, body });
  const newForm = async () =>
    (await api('POST', '/forms', { title: 'Pipeline', fields: [{ ref: 'n', title: 'N', type: 'number' }] }))
      .body.id as string;
  const submit = async (formId: string, n: number) => {
    const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: n }] },
    });
    expect(response.status).toBe(201);
    return response.body.token as string;
  };
  const tokenOf = (body: string) =>
    (JSON.parse(body) as { form_response: { token: string } }).form_response.token;

  it('plans a burst of events together: every submission delivered once, one row each', async () => {
    burstForm = await newForm();
    const hook = await api('PUT', `/forms/${burstForm}/webhooks/burst`, {
      url: receiver.url('/burst'),
      enabled: true,
    });
    expect(hook.status).toBe(200);
    const tokens = await Promise.all(Array.from({ length: 40 }, (_, n) => submit(burstForm, n)));
    const received = await receiver.until(
      '/burst',
      (all) => new Set(all.map((r) => tokenOf(r.body))).size >= 40,
    );
    expect(new Set(received.map((r) => tokenOf(r.body)))).toEqual(new Set(tokens));
    expect(received).toHaveLength(40);
    const rows = await eventually(
      () => webhooksDb.delivery.findMany({ where: { webhookId: hook.body.id } }),
      (all) => all.every((row) => row.status === 'succeeded'),
    );
    expect(rows).toHaveLength(40);
    expect(rows.every((row) => row.attemptCount === 1)).toBe(true);
  });

  it('refuses before and after together in the delivery log', async () => {
    const both = await api('GET', `/forms/${burstForm}/webhooks/burst/deliveries?before=a&after=b`);
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('VALIDATION_ERROR');
  });

  it('records a failed send with its kind', async () => {
    const formId = await newForm();
    const closed = await freePort();
    await api('PUT', `/forms/${formId}/webhooks/closed`, {
      url: `http://127.0.0.1:${closed}/`,
      enabled: true,
    });
    await submit(formId, 1);
    const log = await eventually(
      () => api('GET', `/forms/${formId}/webhooks/closed/deliveries`),
      (response) =>
        response.body.items[0]?.attempts[0]?.status !== undefined &&
        response.body.items[0]?.attempts[0]?.status !== 'sending',
    );
    expect(log.body.items[0]).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(log.body.items[0].attempts[0]).toMatchObject({
      status_code: null,
      error_kind: 'connection_refused',
      next_retry_at: expect.any(String),
    });
  });

  it('opens secrets sealed with any configured key, and re-seals them all with the newest', async () => {
    const formId = await newForm();
    const secrets = { fresh: 's-fresh', older: 's-older', legacy: 's-legacy' };
    const ids: Record<string, string> = {};
    for (const [tag, secret] of Object.entries(secrets)) {
      const hook = await api('PUT', `/forms/${formId}/webhooks/${tag}`, {
        url: receiver.url(`/rot-${tag}`),
        enabled: true,
        secret,
      });
      ids[tag] = hook.body.id;
    }
    expect((await webhooksDb.webhook.findUniqueOrThrow({ where: { id: ids.fresh } })).secretSealed).toMatch(
      /^v2\.k2\./,
    );
    // As sealed before the rotation: with the older key k1, and before key ids existed.
    await webhooksDb.webhook.update({
      where: { id: ids.older },
      data: { secretSealed: new SecretBox([{ id: 'k1', key: keyA }]).seal(secrets.older) },
    });
    await webhooksDb.webhook.update({
      where: { id: ids.legacy },
      data: { secretSealed: sealV1(testWebhookSecretKey, secrets.legacy) },
    });
    for (const tag of Object.keys(secrets)) {
      expect((await api('GET', `/forms/${formId}/webhooks/${tag}`)).body.secret).toBe(
        secrets[tag as keyof typeof secrets],
      );
    }

    const admin = (env: Record<string, string>) =>
      run(process.execPath, [path.resolve('dist/tools/admin/main.js'), 'reseal-webhook-secrets'], {
        env: { PATH: process.env.PATH, WEBHOOKS_DATABASE_URL: webhooksUrl, ...env },
      });
    const ring = { WEBHOOK_SECRET_KEYS: `k2:${keyB},k1:${keyA}`, WEBHOOK_SECRET_KEY: testWebhookSecretKey };
    const first = await admin(ring);
    expect(first.stderr).toMatch(/\b([2-9]|\d\d+) webhook secrets re-sealed with key k2/);
    expect((await admin(ring)).stderr).toMatch(/^0 webhook secrets re-sealed with key k2/);
    // Only the newest key is needed now.
    const newest = new SecretBox([{ id: 'k2', key: keyB }]);
    for (const [tag, secret] of Object.entries(secrets)) {
      const sealed = (await webhooksDb.webhook.findUniqueOrThrow({ where: { id: ids[tag] } })).secretSealed!;
      expect(sealed).toMatch(/^v2\.k2\./);
      expect(newest.open(sealed)).toBe(secret);
    }
    // A ring that opens none of them says so, and fails.
    await expect(
      admin({ WEBHOOK_SECRET_KEYS: `k3:${randomBytes(32).toString('base64')}` }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No configured key opens the secret of webhooks/),
    });

    // Deliveries are signed with the secret as it was.
    await submit(formId, 7);
    const [delivery] = await receiver.until('/rot-older', (all) => all.length >= 1);
    const expected = createHmac('sha256', secrets.older).update(delivery.body).digest('base64');
    expect(delivery.headers['typeform-signature']).toBe(`sha256=${expected}`);
  });
});

// What SecretBox sealed before key ids existed: v1.<iv>.<tag>.<ciphertext>.
function sealV1(base64Key: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(base64Key, 'base64'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), data].map((part) => part.toString('base64url'))].join('.');
}
