import { callApi, useTestRegions } from '@formline/testing';

// The webhooks service's durable consumer rides out a NATS restart: events
// published before, and after, the outage are all delivered.
describe('webhook delivery across a NATS outage', () => {
  const { regions, receiver, nats, createForm, hookToReceiver, accounts } = useTestRegions({
    regions: ['us'],
    receiver: true,
    privateNats: true,
    accounts: { account: 'us' },
  });
  const { account } = accounts;
  let formId: string;

  beforeAll(async () => {
    formId = await createForm(account, {
      title: 'Outage',
      fields: [{ ref: 'n', title: 'N', type: 'number' }],
    });
    await hookToReceiver(account, formId, 'outage');
  });

  const submitUntilAccepted = async (n: number): Promise<string> => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
        method: 'POST',
        headers: { 'idempotency-key': `outage-${n}` },
        body: { answers: [{ field: { ref: 'n' }, type: 'number', number: n }] },
      });
      if (response.status === 201 || response.status === 200) return response.body.token as string;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`submission ${n} never accepted`);
  };

  it('delivers every submission made before and after NATS restarts', async () => {
    const tokens: string[] = [];
    for (let n = 0; n < 10; n++) tokens.push(await submitUntilAccepted(n));
    await nats.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await nats.start();
    for (let n = 10; n < 20; n++) tokens.push(await submitUntilAccepted(n));

    const received = await receiver.until(
      '/outage',
      (all) => new Set(all.map((request) => tokenOf(request.body))).size >= tokens.length,
      40_000,
    );
    const delivered = new Set(received.map((request) => tokenOf(request.body)));
    expect(tokens.filter((token) => !delivered.has(token))).toEqual([]);
  });
});

function tokenOf(body: string): string {
  return (JSON.parse(body) as { form_response: { token: string } }).form_response.token;
}
