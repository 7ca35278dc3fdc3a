import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type TestAccount, useTestRegions, WebhookReceiver, eventually, callApi } from '@formline/testing';
import { Webhook } from 'standardwebhooks';

// Deliveries from a real submission to a real HTTP receiver on 127.0.0.1,
// through the outbox, JetStream, the webhooks service, Redis and the dispatcher.
// The retry schedule is scaled down to 300 ms then 600 ms, without jitter.
describe('webhook delivery', () => {
  const { regions, receiver, tls, api, webhooksDb, accounts } = useTestRegions({
    receiver: true,
    // For a receiver with a self-signed certificate.
    tls: true,
    extraEnv: ({ scratchDir }) => ({
      WEBHOOK_RETRY_SCHEDULE_MS: '300,600',
      WEBHOOK_RETRY_JITTER: '0',
      WEBHOOK_TIMEOUT_MS: '2000',
      // Recordings of multi_format answers.
      FILE_STORAGE_DIR: scratchDir,
    }),
    accounts: { alice: 'us', bob: 'eu' },
  });
  const { alice, bob } = accounts;
  let tlsReceiver: WebhookReceiver; // a self-signed certificate

  beforeAll(async () => {
    const [key, cert] = [tls.keyFile, tls.certFile].map((file) => readFileSync(file, 'utf8'));
    tlsReceiver = await WebhookReceiver.start({ key, cert });
  });

  afterAll(async () => {
    await tlsReceiver?.stop();
  });

  const newForm = async (account: TestAccount): Promise<string> =>
    (
      await api(account, 'POST', '/forms', {
        title: 'Hooked',
        fields: [{ ref: 'n', title: 'N', type: 'number' }],
      })
    ).body.id;

  const submit = async (account: TestAccount, formId: string, n = 1): Promise<string> => {
    const response = await callApi(`${regions.baseUrl(account.region)}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: n }] },
    });
    expect(response.status).toBe(201);
    return response.body.token;
  };

  const putHook = async (
    account: TestAccount,
    formId: string,
    tag: string,
    body: Record<string, unknown>,
  ) => {
    const response = await api(account, 'PUT', `/forms/${formId}/webhooks/${tag}`, body);
    expect([200, 201]).toContain(response.status);
    return response.body;
  };

  it('delivers the Typeform payload, verifiable with Typeform-Signature and Standard Webhooks', async () => {
    const formId = await newForm(alice);
    const secret = 'a-signing-secret';
    await putHook(alice, formId, 'signed', { url: receiver.url('/signed'), enabled: true, secret });
    const token = await submit(alice, formId);

    const [delivery] = await receiver.until('/signed', (requests) => requests.length >= 1);
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      event_id: expect.any(String),
      event_type: 'form_response',
      form_response: { form_id: formId, token },
    });
    expect(payload.account_id).toBeUndefined();
    const expected = createHmac('sha256', secret).update(delivery.body).digest('base64');
    expect(delivery.headers['typeform-signature']).toBe(`sha256=${expected}`);
    expect(delivery.headers['webhook-id']).toBe(payload.event_id);
    const verified = new Webhook(secret, { format: 'raw' }).verify(
      delivery.body,
      delivery.headers as Record<string, string>,
    );
    expect(verified).toEqual(payload);
    // The same key as `whsec_` + base64, as Standard Webhooks libraries usually take it.
    expect(() =>
      new Webhook(`whsec_${Buffer.from(secret).toString('base64')}`).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ),
    ).not.toThrow();
  });

  it('retries on the configured schedule, then records every attempt in the log', async () => {
    const formId = await newForm(alice);
    let calls = 0;
    receiver.answer('/flaky', () => ({ status: ++calls <= 2 ? 500 : 204 }));
    await putHook(alice, formId, 'flaky', { url: receiver.url('/flaky'), enabled: true });
    await submit(alice, formId);

    const requests = await receiver.until('/flaky', (all) => all.length >= 3);
    const gaps = [
      requests[1].receivedAt - requests[0].receivedAt,
      requests[2].receivedAt - requests[1].receivedAt,
    ];
    expect(gaps[0]).toBeGreaterThanOrEqual(280);
    expect(gaps[1]).toBeGreaterThanOrEqual(580);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);

    const log = await eventually(
      () => api(alice, 'GET', `/forms/${formId}/webhooks/flaky/deliveries`),
      (response) => response.body.items[0]?.status === 'succeeded',
    );
    expect(log.status).toBe(200);
    const [entry] = log.body.items;
    expect(entry.attempt_count).toBe(3);
    expect(entry.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([
      204, 500, 500,
    ]);
    expect(entry.attempts[1]).toMatchObject({
      error: 'HTTP 500',
      error_kind: 'http_status',
      next_retry_at: expect.any(String),
    });
    expect(entry.attempts[0]).toMatchObject({ error: null, error_kind: null });
    expect(entry.attempts[0].duration_ms).toEqual(expect.any(Number));

    // Sent again on request: the same event, once more.
    const again = await api(
      alice,
      'POST',
      `/forms/${formId}/webhooks/flaky/deliveries/${entry.id}/redeliver`,
    );
    expect(again.status).toBe(202);
    const resent = await receiver.until('/flaky', (all) => all.length >= 4);
    expect(resent[3].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
  });

  it('disables a webhook that fails through the whole schedule, with the reason', async () => {
    const formId = await newForm(alice);
    receiver.answer('/broken', () => ({ status: 500 }));
    await putHook(alice, formId, 'broken', { url: receiver.url('/broken'), enabled: true });
    await submit(alice, formId);
    await receiver.until('/broken', (all) => all.length >= 3);
    const hook = await eventually(
      () => api(alice, 'GET', `/forms/${formId}/webhooks/broken`),
      (response) => response.body.enabled === false,
    );
    expect(hook.body.disabled_reason).toMatch(/3 attempts failed/);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.at('/broken')).toHaveLength(3);
  });

  it('disables at once on 410 Gone, and honours Retry-After on 429', async () => {
    const formId = await newForm(alice);
    receiver.answer('/gone', () => ({ status: 410 }));
    let limited = 0;
    receiver.answer('/busy', () =>
      ++limited === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await putHook(alice, formId, 'gone', { url: receiver.url('/gone'), enabled: true });
    await putHook(alice, formId, 'busy', { url: receiver.url('/busy'), enabled: true });
    await submit(alice, formId);

    const hook = await eventually(
      () => api(alice, 'GET', `/forms/${formId}/webhooks/gone`),
      (response) => response.body.enabled === false,
    );
    expect(hook.body.disabled_reason).toMatch(/410/);
    const busy = await receiver.until('/busy', (all) => all.length >= 2);
    expect(busy[1].receivedAt - busy[0].receivedAt).toBeGreaterThanOrEqual(950);
    await submit(alice, formId, 2);
    await receiver.until('/busy', (all) => all.length >= 3);
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('counts an answer after WEBHOOK_TIMEOUT_MS as a failure', async () => {
    const formId = await newForm(alice);
    let calls = 0;
    receiver.answer('/slow', () => (++calls === 1 ? { status: 200, delayMs: 3000 } : { status: 200 }));
    await putHook(alice, formId, 'slow', { url: receiver.url('/slow'), enabled: true });
    await submit(alice, formId);
    const log = await eventually(
      () => api(alice, 'GET', `/forms/${formId}/webhooks/slow/deliveries`),
      (response) => response.body.items[0]?.status === 'succeeded',
    );
    const [retried, timedOut] = log.body.items[0].attempts;
    expect(timedOut).toMatchObject({
      status_code: null,
      error_kind: 'timeout',
      error: 'no answer within 2000 ms',
    });
    expect(timedOut.duration_ms).toBeGreaterThanOrEqual(1900);
    expect(retried.status_code).toBe(200);
  });

  it('follows no redirect, and checks the address again at delivery time', async () => {
    const formId = await newForm(alice);
    receiver.answer('/moved', () => ({ status: 302, headers: { location: receiver.url('/target') } }));
    await putHook(alice, formId, 'moved', { url: receiver.url('/moved'), enabled: true });
    const late = await putHook(alice, formId, 'late', { url: receiver.url('/late'), enabled: true });
    // As if its name now resolved to an internal address: 127.0.0.2 is not allow-listed.
    await webhooksDb.us.webhook.update({
      where: { id: late.id },
      data: { url: receiver.url('/late').replace('127.0.0.1', '127.0.0.2') },
    });
    await submit(alice, formId);

    const firstAttempt = (tag: string) =>
      eventually(
        () => api(alice, 'GET', `/forms/${formId}/webhooks/${tag}/deliveries`),
        // An attempt reads `sending` until it ends.
        (response) => finishedAttempts(response.body.items[0]?.attempts) >= 1,
      );
    const moved = await firstAttempt('moved');
    expect(moved.body.items[0].attempts.at(-1)).toMatchObject({
      status_code: 302,
      error_kind: 'http_status',
      error: /redirects are not followed/,
    });
    const refused = await firstAttempt('late');
    expect(refused.body.items[0].attempts.at(-1)).toMatchObject({
      status_code: null,
      error_kind: 'address_refused',
      error: /url refused/,
    });
    expect(receiver.at('/target')).toHaveLength(0);
    expect(receiver.at('/late')).toHaveLength(0);
  });

  it('checks certificates unless verify_ssl is false, for that webhook only', async () => {
    const formId = await newForm(alice);
    await putHook(alice, formId, 'strict', { url: tlsReceiver.url('/strict'), enabled: true });
    await putHook(alice, formId, 'lax', { url: tlsReceiver.url('/lax'), enabled: true, verify_ssl: false });
    await submit(alice, formId);
    await tlsReceiver.until('/lax', (all) => all.length >= 1);
    const strict = await eventually(
      () => api(alice, 'GET', `/forms/${formId}/webhooks/strict/deliveries`),
      // An attempt reads `sending` until it ends.
      (response) => finishedAttempts(response.body.items[0]?.attempts) >= 1,
    );
    expect(strict.body.items[0].attempts.at(-1).error).toMatch(/certificate/i);
    expect(strict.body.items[0].attempts.at(-1).error_kind).toBe('tls');
    expect(tlsReceiver.at('/strict')).toHaveLength(0);
  });

  it('delivers EU submissions from the EU stack only', async () => {
    const formId = await newForm(bob);
    await putHook(bob, formId, 'eu', { url: receiver.url('/eu'), enabled: true });
    await submit(bob, formId);
    const [request] = await receiver.until('/eu', (all) => all.length >= 1);
    const eventId = request.headers['webhook-id'] as string;
    const euAttempts = await eventually(
      () => webhooksDb.eu.deliveryAttempt.count({ where: { delivery: { eventId } } }),
      (count) => count >= 1,
    );
    expect(euAttempts).toBe(1);
    expect(await webhooksDb.us.delivery.count({ where: { eventId } })).toBe(0);
  });

  it('delivers multi_format answers, a recording and a text, signed, with a file_url the owner downloads', async () => {
    const created = await api(bob, 'POST', '/forms', {
      title: 'Say hello',
      fields: [{ ref: 'hello', title: 'Say hello on video', type: 'multi_format' }],
    });
    expect(created.status).toBe(201);
    const formId: string = created.body.id;
    const fieldId: string = created.body.fields[0].id;
    const secret = 'a-recording-secret';
    await putHook(bob, formId, 'hello', { url: receiver.url('/multi-format'), enabled: true, secret });
    const base = regions.baseUrl('eu');
    const clip = Buffer.from('\x1aE\xdf\xa3 a tiny webm recording');
    const uploaded = await fetch(`${base}/forms/${formId}/files/hello?filename=hello.webm`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: clip,
    });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { file_url: string; file_name: string };
    const answer = (multiFormat: unknown) =>
      callApi(`${base}/forms/${formId}/submissions`, {
        method: 'POST',
        body: { answers: [{ field: { ref: 'hello' }, type: 'multi_format', multi_format: multiFormat }] },
      });
    const recorded = await answer({ format: 'video', file_url: file.file_url });
    expect(recorded.status).toBe(201);
    const typed = await answer({ format: 'text', text: 'Hello from a keyboard' });
    expect(typed.status).toBe(201);

    const deliveries = await receiver.until('/multi-format', (all) => all.length >= 2);
    const payloads = deliveries.map((delivery) => {
      const verified = new Webhook(secret, { format: 'raw' }).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ) as { form_response: { token: string; answers: unknown[]; definition: { fields: unknown[] } } };
      const expected = createHmac('sha256', secret).update(delivery.body).digest('base64');
      expect(delivery.headers['typeform-signature']).toBe(`sha256=${expected}`);
      return verified.form_response;
    });
    const byToken = new Map(payloads.map((payload) => [payload.token, payload]));
    const field = { id: fieldId, ref: 'hello', type: 'multi_format' };
    const shown = `${base}/forms/${formId}/responses/${recorded.body.response_id}/fields/${fieldId}/files/${file.file_name}`;
    expect(byToken.get(recorded.body.token)?.answers).toEqual([
      { field, type: 'multi_format', multi_format: { format: 'video', file_url: shown } },
    ]);
    expect(byToken.get(typed.body.token)?.answers).toEqual([
      { field, type: 'multi_format', multi_format: { format: 'text', text: 'Hello from a keyboard' } },
    ]);
    expect(byToken.get(recorded.body.token)?.definition.fields).toEqual([
      expect.objectContaining({ id: fieldId, ref: 'hello', type: 'multi_format' }),
    ]);
    // The delivered address is the owner's download of the recording.
    const got = await fetch(shown, { headers: { authorization: `bearer ${bob.token}` } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(clip);
  });
});

// Attempts that have ended: one reads `sending` from before its POST until
// the receiver answers (or its dispatcher is known to have died).
function finishedAttempts(attempts: { status: string }[] | undefined): number {
  return (attempts ?? []).filter((attempt) => attempt.status !== 'sending').length;
}
