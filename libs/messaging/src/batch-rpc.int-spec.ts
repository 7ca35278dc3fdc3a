import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { defineBatchRpc } from '@formline/contracts';
import { DomainError, ErrorCode } from '@formline/errors';
import { inputLimits } from '@formline/input';
import { testInfra } from '@formline/testing';
import { z } from 'zod';
import { BatchRpcClient } from './batch-rpc.client';
import { BatchRpcResponder } from './batch-rpc.responder';
import { InFlightBudget } from './in-flight-budget';
import { connectNats } from './nats-connection';

// Batches of calls between two connections of the test profile's NATS: calls
// made while the lane is out go together, the value they share once, and
// each caller hears its own answer or failure, whatever the others' were.
describe('batches of calls over NATS', () => {
  const settings = () => ({ NATS_URL: testInfra().natsUrl.us, NATS_RECONNECT_WAIT_MS: 100 });
  const contractOn = (subject: string) =>
    defineBatchRpc({
      subject,
      item: z.object({ say: z.string().max(100), bytes: z.int().min(0).default(0) }),
      shared: z.object({ form: z.string() }),
      reply: z.object({ said: z.string(), form: z.string().optional(), padding: z.string().optional() }),
    });
  type Contract = ReturnType<typeof contractOn>;
  let served: NatsConnection;
  let calling: NatsConnection;
  let watching: NatsConnection;

  beforeAll(async () => {
    [served, calling, watching] = await Promise.all([
      connectNats(settings(), 'batch-rpc-responder'),
      connectNats(settings(), 'batch-rpc-client'),
      connectNats(settings(), 'batch-rpc-watch'),
    ]);
  });

  afterAll(async () => {
    await Promise.all([served.close(), calling.close(), watching.close()]);
  });

  // A responder and a client on a subject of their own, and every request
  // message on that subject as it went.
  async function pair(options: { maxInFlight?: number; timeoutMs?: number; lanes?: number } = {}) {
    const contract = contractOn(`test.batch-rpc.${randomUUID()}`);
    const responder = new BatchRpcResponder(served, {
      queue: 'batch-rpc-spec',
      budget: new InFlightBudget(options.maxInFlight ?? 100),
    });
    const gates: (() => void)[] = [];
    const alone: string[] = [];
    responder.serve(contract, async ({ say, bytes }, shared) => {
      if (say === 'refuse') throw new DomainError(ErrorCode.FormNotFound, 'No such form.');
      if (say === 'crash') throw new Error('a bug, with internals');
      if (say === 'silent') await new Promise(() => undefined);
      if (say.startsWith('wait')) await new Promise<void>((resolve) => gates.push(resolve));
      return { said: say, form: shared?.form, ...(bytes > 0 ? { padding: 'a'.repeat(bytes) } : {}) };
    });
    const requests: { shared: unknown[]; items: unknown[] }[] = [];
    const watch: Subscription = watching.subscribe(contract.subject, {
      callback: (_error, message) => {
        requests.push(JSON.parse(message.string()) as (typeof requests)[number]);
      },
    });
    await Promise.all([served.flush(), watching.flush()]);
    const client = new BatchRpcClient<Contract>(calling, contract, options.timeoutMs ?? 2000, {
      lanes: options.lanes ?? 1,
      alone: (call) => {
        alone.push(call.say);
        return Promise.resolve({ said: `${call.say} alone` });
      },
    });
    const releaseAll = () => gates.splice(0).forEach((release) => release());
    const stop = async () => {
      releaseAll();
      watch.unsubscribe();
      await responder.stop();
    };
    return { contract, client, responder, requests, alone, gates, releaseAll, stop };
  }

  const outcome = <T>(promise: Promise<T>) =>
    promise.then(
      (reply) => ({ reply }),
      (error: unknown) => ({ error: (error as DomainError).toBody() }),
    );

  async function until(condition: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(condition()).toBe(true);
  }

  it('sends a lone call at once, and the calls made while it is out together, their shared value once', async () => {
    const { client, requests, gates, releaseAll, stop } = await pair();
    const form = { form: 'f1' };
    const other = { form: 'f2' };
    const first = client.call({ say: 'wait first' }, form, 'request-0');
    await until(() => gates.length === 1);
    const later = Array.from({ length: 10 }, (_, i) =>
      client.call({ say: `call ${i}` }, i === 9 ? other : form, `request-${i + 1}`),
    );
    releaseAll();
    expect(await first).toEqual({ said: 'wait first', form: 'f1' });
    expect(await Promise.all(later)).toEqual(
      Array.from({ length: 10 }, (_, i) => ({ said: `call ${i}`, form: i === 9 ? 'f2' : 'f1' })),
    );
    expect(requests.map((request) => request.items.length)).toEqual([1, 10]);
    expect(requests[1].shared).toEqual([{ form: 'f1' }, { form: 'f2' }]);
    await stop();
  });

  it('answers each call its own failure and the others their replies', async () => {
    const { client, gates, releaseAll, stop } = await pair();
    const held = client.call({ say: 'wait' }, { form: 'f' }, 'r0');
    await until(() => gates.length === 1);
    const together = [
      client.call({ say: 'fine' }, { form: 'f' }, 'r1'),
      client.call({ say: 'refuse' }, { form: 'f' }, 'r2'),
      client.call({ say: 42 } as unknown as { say: string }, { form: 'f' }, 'r3'),
      client.call({ say: 'crash' }, { form: 'f' }, 'r4'),
    ].map(outcome);
    releaseAll();
    await held;
    const [fine, refused, invalid, crashed] = await Promise.all(together);
    expect(fine).toEqual({ reply: { said: 'fine', form: 'f' } });
    expect(refused).toEqual({ error: { code: ErrorCode.FormNotFound, description: 'No such form.' } });
    expect(invalid).toMatchObject({
      error: { code: ErrorCode.ValidationError, details: [{ field: 'say' }] },
    });
    expect(crashed).toMatchObject({ error: { code: ErrorCode.InternalError } });
    await stop();
  });

  it('answers each call as soon as it is done: a slow one holds back none of the others', async () => {
    const { client, gates, releaseAll, stop } = await pair({ lanes: 1 });
    const held = client.call({ say: 'wait' }, { form: 'f' }, 'r0');
    await until(() => gates.length === 1);
    const slow = client.call({ say: 'wait slow' }, { form: 'f' }, 'r1');
    const fast = client.call({ say: 'fast' }, { form: 'f' }, 'r2');
    releaseAll();
    await held;
    // The slow one is in work, its gate closed, and the fast one answered.
    await until(() => gates.length === 1);
    expect(await fast).toEqual({ said: 'fast', form: 'f' });
    releaseAll();
    expect(await slow).toEqual({ said: 'wait slow', form: 'f' });
    await stop();
  });

  it('answers SERVICE_UNAVAILABLE, unsent, a call that waited for a lane past its deadline', async () => {
    const { client, requests, gates, releaseAll, stop } = await pair({ lanes: 1, timeoutMs: 300 });
    const held = outcome(client.call({ say: 'wait' }, { form: 'f' }, 'r0'));
    await until(() => gates.length === 1);
    // A full batch's worth queued behind it, then one more: that one's turn
    // comes only after two timeouts, past its own deadline.
    const queued = Array.from({ length: 64 }, (_, i) =>
      outcome(client.call({ say: `wait ${i}` }, { form: 'f' }, `q${i}`)),
    );
    const late = outcome(client.call({ say: 'late' }, { form: 'f' }, 'late'));
    expect(await held).toMatchObject({ error: { code: ErrorCode.ServiceUnavailable } });
    for (const answer of await Promise.all(queued)) {
      expect(answer).toMatchObject({ error: { code: ErrorCode.ServiceUnavailable } });
    }
    expect(await late).toMatchObject({ error: { code: ErrorCode.ServiceUnavailable } });
    releaseAll();
    expect(requests.map((request) => request.items.length)).toEqual([1, 64]);
    await stop();
  });

  it('answers in as many messages as the answers need, and refuses only an answer no message holds', async () => {
    const { client, gates, releaseAll, stop } = await pair();
    const held = client.call({ say: 'wait' }, { form: 'f' }, 'r0');
    await until(() => gates.length === 1);
    const third = Math.floor(inputLimits.replyBytes / 3);
    const big = [0, 1, 2, 3, 4].map((i) =>
      outcome(client.call({ say: `big ${i}`, bytes: third }, { form: 'f' }, `r${i}`)),
    );
    const tooBig = outcome(
      client.call({ say: 'too big', bytes: inputLimits.replyBytes }, { form: 'f' }, 'r9'),
    );
    releaseAll();
    await held;
    for (const [i, answer] of (await Promise.all(big)).entries()) {
      expect(answer).toEqual({ reply: { said: `big ${i}`, form: 'f', padding: 'a'.repeat(third) } });
    }
    expect(await tooBig).toMatchObject({ error: { code: ErrorCode.ResponseTooLarge } });
    await stop();
  });

  it('sends a call too large for a batch alone, and every call alone while no service takes batches', async () => {
    const { client, alone, stop } = await pair();
    expect(await client.call({ say: 'x'.repeat(70 * 1024) }, { form: 'f' }, 'r')).toEqual({
      said: `${'x'.repeat(70 * 1024)} alone`,
    });
    await stop();
    expect(
      await Promise.all([
        client.call({ say: 'a' }, { form: 'f' }, 'r1'),
        client.call({ say: 'b' }, { form: 'f' }, 'r2'),
      ]),
    ).toEqual([{ said: 'a alone' }, { said: 'b alone' }]);
    expect(alone).toEqual(['x'.repeat(70 * 1024), 'a', 'b']);
  });

  it('answers SERVICE_UNAVAILABLE to the calls past the service’s bound, and to those it does not answer in time', async () => {
    const bounded = await pair({ maxInFlight: 2 });
    const held = bounded.client.call({ say: 'wait' }, { form: 'f' }, 'r0');
    await until(() => bounded.gates.length === 1);
    const together = ['wait 1', 'wait 2', 'wait 3'].map((say) =>
      outcome(bounded.client.call({ say }, { form: 'f' }, say)),
    );
    bounded.releaseAll();
    await held;
    // Two of the three are in work, the third refused at once.
    await until(() => bounded.gates.length === 2);
    bounded.releaseAll();
    const answers = await Promise.all(together);
    expect(answers[0]).toEqual({ reply: { said: 'wait 1', form: 'f' } });
    expect(answers[1]).toEqual({ reply: { said: 'wait 2', form: 'f' } });
    expect(answers[2]).toMatchObject({ error: { code: ErrorCode.ServiceUnavailable } });
    await bounded.stop();

    const slow = await pair({ timeoutMs: 300 });
    const started = Date.now();
    expect(await outcome(slow.client.call({ say: 'silent' }, { form: 'f' }, 'r'))).toMatchObject({
      error: { code: ErrorCode.ServiceUnavailable },
    });
    expect(Date.now() - started).toBeLessThan(2000);
    const after = await slow.client.call({ say: 'after' }, { form: 'f' }, 'r');
    expect(after).toEqual({ said: 'after', form: 'f' });
    void slow.stop();
  });
});
