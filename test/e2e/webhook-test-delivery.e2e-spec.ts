import { createHmac } from 'node:crypto';
import { eventually, useTestRegions } from '@formline/testing';

// POST /forms/{form_id}/webhooks/{tag}/test, an extension of Typeform's API:
// one signed request in the shape of a submission's, with no answers and a
// `test-` token, sent once even to a webhook turned off, and kept in the log.
// One retry 300 ms after a first failure, were it retried (it is not).
describe('a test delivery', () => {
  const { receiver, api, createForm, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'webhooks', 'dispatcher'],
    receiver: true,
    extraEnv: { WEBHOOK_RETRY_SCHEDULE_MS: '300', WEBHOOK_RETRY_JITTER: '0', WEBHOOK_TIMEOUT_MS: '2000' },
    accounts: { alice: 'us', mallory: 'us' },
  });
  const { alice, mallory } = accounts;
  const newestOf = (formId: string, tag: string) =>
    eventually(
      () => api(alice, 'GET', `/forms/${formId}/webhooks/${tag}/deliveries`),
      (log) => log.body.items[0] !== undefined && log.body.items[0].status !== 'pending',
    ).then((log) => log.body.items[0]);

  it('sends one signed request to a webhook even turned off, and logs it', async () => {
    const formId = await createForm(alice);
    const put = await api(alice, 'PUT', `/forms/${formId}/webhooks/probe`, {
      url: receiver.url('/probe'),
      secret: 'probe-secret',
      enabled: false,
    });
    expect(put.status).toBe(200);

    const sent = await api(alice, 'POST', `/forms/${formId}/webhooks/probe/test`);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    const [request] = await receiver.until('/probe', (requests) => requests.length >= 1);
    const payload = JSON.parse(request.body);
    expect(payload).toMatchObject({
      event_id: sent.body.event_id,
      event_type: 'form_response',
      form_response: { form_id: formId, token: `test-${sent.body.event_id}`, answers: [] },
    });
    const signature = createHmac('sha256', 'probe-secret').update(request.body).digest('base64');
    expect(request.headers['typeform-signature']).toBe(`sha256=${signature}`);
    const logged = await newestOf(formId, 'probe');
    expect(logged).toMatchObject({ id: sent.body.id, status: 'succeeded', attempt_count: 1 });
    // Still off: a test changes nothing of the webhook.
    expect((await api(alice, 'GET', `/forms/${formId}/webhooks/probe`)).body.enabled).toBe(false);
  });

  it('is sent once, not retried, when the receiver fails', async () => {
    const formId = await createForm(alice);
    receiver.answer('/down', () => ({ status: 500 }));
    await api(alice, 'PUT', `/forms/${formId}/webhooks/down`, { url: receiver.url('/down'), enabled: true });
    expect((await api(alice, 'POST', `/forms/${formId}/webhooks/down/test`)).status).toBe(202);
    const logged = await newestOf(formId, 'down');
    expect(logged).toMatchObject({ status: 'failed', attempt_count: 1 });
    expect(logged.attempts[0]).toMatchObject({ status_code: 500, error_kind: 'http_status' });
    // Past the retry schedule's one step: nothing more arrived.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.at('/down')).toHaveLength(1);
    // A failed test turns nothing off (only a receiver that says it is gone would).
    expect((await api(alice, 'GET', `/forms/${formId}/webhooks/down`)).body.enabled).toBe(true);
  });

  it("refuses another account's form and an unknown webhook", async () => {
    const formId = await createForm(alice);
    await api(alice, 'PUT', `/forms/${formId}/webhooks/mine`, { url: receiver.url('/mine') });
    const foreign = await api(mallory, 'POST', `/forms/${formId}/webhooks/mine/test`);
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({
      status: 404,
      code: 'FORM_NOT_FOUND',
    });
    expect((await api(alice, 'POST', `/forms/${formId}/webhooks/nothing-here/test`)).status).toBe(404);
    expect(receiver.at('/mine')).toHaveLength(0);
  });
});
