import { callApi, eventually, useTestRegions } from '@formline/testing';

// POST /forms/{form_id}/webhooks/{tag}/deliveries/redeliver-failed, an
// extension of Typeform's API: every failed delivery of a webhook created in
// a window is sent once more, and only those. Real submissions to a real
// receiver on 127.0.0.1; one retry 300 ms after the first attempt, so a
// failing receiver fails a delivery (and turns the webhook off) in two attempts.
describe('redelivering the failed deliveries of a window', () => {
  const { regions, receiver, api, createForm, accounts } = useTestRegions({
    regions: ['us'],
    apps: ['gateway', 'global', 'responses', 'webhooks', 'dispatcher'],
    receiver: true,
    extraEnv: { WEBHOOK_RETRY_SCHEDULE_MS: '300', WEBHOOK_RETRY_JITTER: '0', WEBHOOK_TIMEOUT_MS: '2000' },
    accounts: { alice: 'us', mallory: 'us' },
  });
  const { alice, mallory } = accounts;

  const submit = async (formId: string): Promise<void> => {
    const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: 1 }] },
    });
    expect(response.status).toBe(201);
  };
  const log = (formId: string) => api(alice, 'GET', `/forms/${formId}/webhooks/hook/deliveries`);
  const statuses = async (formId: string) =>
    (await log(formId)).body.items.map((item: { status: string }) => item.status) as string[];
  const untilStatuses = (formId: string, expected: string[]) =>
    eventually(
      () => statuses(formId),
      (found) => JSON.stringify(found) === JSON.stringify(expected),
    ).then((found) => expect(found).toEqual(expected));
  const redeliverFailed = (formId: string, body: unknown, who = alice, tag = 'hook') =>
    api(who, 'POST', `/forms/${formId}/webhooks/${tag}/deliveries/redeliver-failed`, body);

  it('sends again the failed deliveries created in the window, and no other', async () => {
    const formId = await createForm(alice);
    receiver.answer('/window', () => ({ status: 500 }));
    const hook = await api(alice, 'PUT', `/forms/${formId}/webhooks/hook`, {
      url: receiver.url('/window'),
      enabled: true,
    });
    expect(hook.status).toBe(200);

    // One delivery fails before the window opens...
    await submit(formId);
    await untilStatuses(formId, ['failed']);
    // (the window is to the second: it opens on the next one)
    const since = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000);
    await new Promise((resolve) => setTimeout(resolve, since.getTime() - Date.now() + 50));
    // ...two fail inside it (the webhook, turned off by the first failure, on again).
    expect((await api(alice, 'PUT', `/forms/${formId}/webhooks/hook`, { enabled: true })).status).toBe(200);
    await submit(formId);
    await untilStatuses(formId, ['failed', 'failed']);
    expect((await api(alice, 'PUT', `/forms/${formId}/webhooks/hook`, { enabled: true })).status).toBe(200);
    await submit(formId);
    await untilStatuses(formId, ['failed', 'failed', 'failed']);
    const before = receiver.at('/window').length;
    expect(before).toBe(6);

    receiver.answer('/window', () => ({ status: 204 }));
    const answer = await redeliverFailed(formId, { since: since.toISOString() });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ redelivered: 2, more: false });
    await untilStatuses(formId, ['succeeded', 'succeeded', 'failed']);
    const items = (await log(formId)).body.items as Array<{ attempts: unknown[] }>;
    expect(items.map((item) => item.attempts.length)).toEqual([3, 3, 2]);
    expect(receiver.at('/window').length).toBe(before + 2);

    // Nothing failed is left in the window: nothing more is sent.
    const again = await redeliverFailed(formId, { since: Math.floor(since.getTime() / 1000) });
    expect(again.body).toEqual({ redelivered: 0, more: false });
    // A window that ends before the first failure holds none either.
    const earlier = await redeliverFailed(formId, {
      since: '2020-01-01T00:00:00Z',
      until: '2020-01-02T00:00:00Z',
    });
    expect(earlier.body).toEqual({ redelivered: 0, more: false });
    // The whole history: the one left.
    const all = await redeliverFailed(formId, { since: '2020-01-01T00:00:00Z' });
    expect(all.body).toEqual({ redelivered: 1, more: false });
    await untilStatuses(formId, ['succeeded', 'succeeded', 'succeeded']);
  });

  it("refuses a window it cannot read, another account's form, and an unknown webhook", async () => {
    const formId = await createForm(alice);
    expect(
      (await api(alice, 'PUT', `/forms/${formId}/webhooks/hook`, { url: receiver.url('/x') })).status,
    ).toBe(200);
    for (const body of [
      {},
      { since: 'yesterday' },
      { since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' },
      { since: '2026-01-01T00:00:00Z', limit: 5 },
    ]) {
      const refused = await redeliverFailed(formId, body);
      expect({ body, status: refused.status, code: refused.body.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
    const since = { since: '2026-01-01T00:00:00Z' };
    const foreign = await redeliverFailed(formId, since, mallory);
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({
      status: 404,
      code: 'FORM_NOT_FOUND',
    });
    const unknown = await redeliverFailed(formId, since, alice, 'nothing-here');
    expect(unknown.status).toBe(404);
  });
});
