import { callApi, eventually, useTestRegions } from '@formline/testing';

// What the dispatcher does between a receiver's answer and the delivery log:
// a send the receiver acknowledged is never sent again because
// PostgreSQL could not take its outcome at that moment; and the log shows an
// attempt under way as `sending`, and one whose dispatcher died as
// `interrupted`, followed by the attempt that took over. PostgreSQL sits
// behind a proxy the test cuts, so the shared server stays up.
describe('delivery outcomes', () => {
  const {
    regions,
    receiver,
    databaseProxy: proxy,
    accounts,
  } = useTestRegions({
    regions: ['us'],
    receiver: true,
    databaseProxy: true,
    extraEnv: {
      DISPATCHER_LOCK_MS: '2000',
      // A run that fails for want of the database comes back within half a second.
      WEBHOOK_RETRY_SCHEDULE_MS: '500,500,500,500,500',
    },
    accounts: { account: 'us' },
  });
  const { account } = accounts;

  const base = () => regions.baseUrl('us');
  // Each test its own form and webhook, named by the tag.
  const forms = new Map<string, string>();
  async function hookAndSubmit(tag: string): Promise<void> {
    const form = await callApi(`${base()}/forms`, {
      token: account.token,
      method: 'POST',
      body: { title: tag, fields: [{ ref: 'n', title: 'N', type: 'number' }] },
    });
    expect(form.status).toBe(201);
    forms.set(tag, form.body.id);
    const hook = await callApi(`${base()}/forms/${form.body.id}/webhooks/${tag}`, {
      token: account.token,
      method: 'PUT',
      body: { url: receiver.url(`/${tag}`), enabled: true },
    });
    expect(hook.status).toBe(200);
    const submitted = await callApi(`${base()}/forms/${form.body.id}/submissions`, {
      method: 'POST',
      body: { answers: [{ field: { ref: 'n' }, type: 'number', number: 1 }] },
    });
    expect(submitted.status).toBe(201);
  }
  const log = (tag: string) =>
    callApi(`${base()}/forms/${forms.get(tag)}/webhooks/${tag}/deliveries`, { token: account.token });

  it('never sends again a delivery the receiver acknowledged while PostgreSQL could not record it', async () => {
    // The receiver takes the delivery, and the database goes away before the
    // dispatcher hears the 200.
    receiver.answer('/acked', () => {
      void proxy.stop();
      return { status: 200, delayMs: 200 };
    });
    await hookAndSubmit('acked');
    await receiver.until('/acked', (requests) => requests.length >= 1, 30_000);
    // Long enough for several runs of the job to fail for want of the database.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await proxy.start();

    const recorded = await eventually(
      () => log('acked'),
      (response) => response.body?.items?.[0]?.status === 'succeeded',
      30_000,
      250,
    );
    expect(recorded.body.items).toHaveLength(1);
    const [delivery] = recorded.body.items;
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ status: 'succeeded', status_code: 200, error_kind: null }),
    ]);
    // And nothing comes after it: the job is over.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at('/acked')).toHaveLength(1);
  });

  it('shows an attempt under way as sending, and as interrupted once its dispatcher died and another took over', async () => {
    // The first send hangs until the dispatcher is killed; the takeover's send is answered.
    receiver.answer('/slow', (request) =>
      receiver.at('/slow').indexOf(request) === 0 ? { status: 200, delayMs: 20_000 } : { status: 200 },
    );
    await hookAndSubmit('slow');
    await receiver.until('/slow', (requests) => requests.length >= 1, 30_000);

    const during = await log('slow');
    expect(during.body.items[0]).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(during.body.items[0].attempts).toEqual([
      expect.objectContaining({ status: 'sending', error_kind: null, error: null, status_code: null }),
    ]);

    const stack = regions.stacks.us!;
    const dispatcher = stack.app('dispatcher');
    dispatcher.kill();
    await dispatcher.waitExit();
    await stack.restart('dispatcher');

    const after = await eventually(
      () => log('slow'),
      (response) => response.body?.items?.[0]?.status === 'succeeded',
      60_000,
      250,
    );
    expect(after.body.items[0]).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    // Newest first: the takeover's send, then the one whose answer never came.
    expect(after.body.items[0].attempts).toEqual([
      expect.objectContaining({ status: 'succeeded', status_code: 200 }),
      expect.objectContaining({
        status: 'interrupted',
        error_kind: 'interrupted',
        error: expect.stringMatching(/may have received it/),
      }),
    ]);
    // Both sends carry the same event id, for the receiver to drop the second.
    const ids = receiver.at('/slow').map((request) => request.headers['webhook-id']);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });
});
