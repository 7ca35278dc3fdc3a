import { callApi, useTestRegions } from '@formline/testing';

// At least once, nothing lost: 500 submissions while the dispatcher, then the
// webhooks service, are killed with SIGKILL and replaced. Every submission
// reaches the receiver; duplicates are allowed (and counted), carrying the same
// event id for the receiver to drop.
describe('webhook delivery through crashes', () => {
  const fixture = useTestRegions({
    regions: ['us'],
    receiver: true,
    extraEnv: {
      // A dead dispatcher's jobs, and a dead consumer's events, are taken over within seconds.
      DISPATCHER_LOCK_MS: '2000',
      WEBHOOK_EVENT_ACK_WAIT_MS: '3000',
      WEBHOOK_RETRY_SCHEDULE_MS: '500,500,500,500,500',
    },
    accounts: { account: 'us' },
  });
  const { regions, receiver, createForm, hookToReceiver, accounts } = fixture;
  const webhooksDb = fixture.webhooksDb.us;
  const { account } = accounts;
  const total = 500;
  let formId: string;

  beforeAll(async () => {
    formId = await createForm(account, { title: 'Load', fields: [{ ref: 'n', title: 'N', type: 'number' }] });
    await hookToReceiver(account, formId, 'load');
  });

  it('delivers all 500 submissions although the dispatcher and the webhooks service are killed', async () => {
    const stack = regions.stacks.us!;
    const tokens: string[] = [];
    const crashes: Promise<unknown>[] = [];
    const receivedAtKill: number[] = [];
    for (let batch = 0; batch < total / 10; batch++) {
      const accepted = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const response = await callApi(`${regions.baseUrl('us')}/forms/${formId}/submissions`, {
            method: 'POST',
            body: { answers: [{ field: { ref: 'n' }, type: 'number', number: batch * 10 + i }] },
          });
          expect(response.status).toBe(201);
          return response.body.token as string;
        }),
      );
      tokens.push(...accepted);
      if (batch === 10) crashes.push(killAndReplace('dispatcher'));
      if (batch === 25) crashes.push(killAndReplace('webhooks'));
    }
    await Promise.all(crashes);

    const received = await receiver.until(
      '/load',
      (all) => new Set(all.map((request) => tokenOf(request.body))).size >= total,
      45_000,
    );
    const delivered = new Set(received.map((request) => tokenOf(request.body)));
    expect([...tokens].filter((token) => !delivered.has(token))).toEqual([]);
    const duplicates = received.length - delivered.size;
    // Every copy of one submission carries the same event id.
    const idsByToken = new Map<string, Set<string>>();
    for (const request of received) {
      const token = tokenOf(request.body);
      idsByToken.set(token, (idsByToken.get(token) ?? new Set()).add(String(request.headers['webhook-id'])));
    }
    expect([...idsByToken.values()].every((ids) => ids.size === 1)).toBe(true);
    // Only the sends in flight when the dispatcher died may arrive twice (at
    // most DISPATCHER_CONCURRENCY, 20), and each is in the log as interrupted:
    // the attempt is written before the POST.
    expect(duplicates).toBeLessThanOrEqual(20);
    const interrupted = await webhooksDb.deliveryAttempt.count({
      where: { errorKind: 'interrupted', delivery: { webhook: { formId } } },
    });
    expect(interrupted).toBeGreaterThanOrEqual(duplicates);
    process.stdout.write(
      `webhook crash test: ${total} delivered, ${duplicates} duplicate deliveries, ${interrupted} interrupted attempts; kills after ${receivedAtKill.join(' and ')} deliveries\n`,
    );

    async function killAndReplace(app: 'dispatcher' | 'webhooks') {
      const victim = stack.app(app);
      receivedAtKill.push(receiver.at('/load').length);
      victim.kill();
      await victim.waitExit();
      await stack.restart(app);
    }
  }, 120_000);
});

function tokenOf(body: string): string {
  return (JSON.parse(body) as { form_response: { token: string } }).form_response.token;
}
