import { rawRequest } from '@formline/testing';
import { type Attack, type AttackTarget, loopUntil, sleep } from '../attack';
import { LoopbackAddresses, sendFrom } from '../loopback-http';
import { StatusTally } from '../status-tally';

// Early bodies: requests that declare megabytes and hold their body back,
// which the gateway must refuse from what it knows before the body (who is
// calling, the caller's budgets, the declared length): an anonymous image
// upload (401), a file over the file limit and a submission over the body
// limit (413), and a submission from an address already over its budget
// (429). Each must be answered at once, while nothing of its body was sent.

const mib = 1024 * 1024;
/** "At once": a refusal decided before the body needs no more than this, even on a busy machine. */
const atOnceMs = 1_000;
/** How long a held-back request is given to be answered before it counts as held by the gateway. */
const giveUpMs = 5_000;
const workers = 8;

interface EarlyKind {
  tally: StatusTally;
  expected: number[];
  request(index: number): {
    method: string;
    path: string;
    headers: Record<string, string>;
    body: string;
    declaredLength: number;
    from: string;
  };
}

export function earlyBodies(target: AttackTarget): Attack {
  const addresses = new LoopbackAddresses(11);
  const overBudget = addresses.at(253);
  const form = `/forms/${target.formId}`;
  const json = { 'content-type': 'application/json' };
  const kinds: EarlyKind[] = [
    {
      tally: new StatusTally('anonymous POST /images, 5 MiB held back'),
      expected: [401],
      request: (index) => ({
        method: 'POST',
        path: '/images',
        headers: json,
        body: '{"image":"',
        declaredLength: 5 * mib,
        from: addresses.at(index % 50),
      }),
    },
    {
      tally: new StatusTally('file upload declaring 20 MiB'),
      // 429 once the address has started its 60 submissions of the minute.
      expected: [413, 429],
      request: (index) => ({
        method: 'POST',
        path: `${form}/files/cv?filename=big.bin`,
        headers: { 'content-type': 'application/octet-stream' },
        body: 'x',
        declaredLength: 20 * mib,
        from: addresses.at(50 + (index % 50)),
      }),
    },
    {
      tally: new StatusTally('submission declaring 1 MiB'),
      expected: [413, 429],
      request: (index) => ({
        method: 'POST',
        path: `${form}/submissions`,
        headers: json,
        body: '{"answers":[',
        declaredLength: mib,
        from: addresses.at(100 + (index % 50)),
      }),
    },
    {
      tally: new StatusTally('submission over its address budget, 300 KB held back'),
      expected: [429],
      request: () => ({
        method: 'POST',
        path: `${form}/submissions`,
        headers: json,
        body: '{"answers":[',
        declaredLength: 300_000,
        from: overBudget,
      }),
    },
  ];
  const notes: string[] = [];
  return {
    name: 'early',
    tallies: kinds.map((kind) => kind.tally),
    notes,
    async run(until) {
      // The address spends its minute's submissions first (small and whole).
      let spent = 0;
      await loopUntil(until, 4, async () => {
        const answer = await sendFrom(target.base, {
          method: 'POST',
          path: `${form}/submissions`,
          from: overBudget,
          headers: json,
          body: '{"answers":[]}',
        });
        spent++;
        return answer.status !== 429;
      });
      notes.push(`the over-budget address spent its budget in ${spent} submissions`);
      let sent = 0;
      let slowest = 0;
      await loopUntil(until, workers, async () => {
        const index = sent++;
        const kind = kinds[index % kinds.length];
        const { from, ...request } = kind.request(Math.floor(index / kinds.length));
        const exchange = rawRequest(target.base.origin, { ...request, localAddress: from });
        const answer = await Promise.race([exchange.answer, sleep(giveUpMs).then(() => 'held' as const)]);
        exchange.close();
        if (answer === 'held') {
          kind.tally.count('held');
          kind.tally.fail(`not answered within ${giveUpMs} ms while its body was held back`);
          return;
        }
        const status = answer?.status ?? 0;
        kind.tally.answer(status, answer?.headers.get('retry-after') ?? undefined);
        if (!kind.expected.includes(status))
          kind.tally.fail(`answered ${status}, not ${kind.expected.join(' or ')}`);
        if (answer && answer.afterMs > atOnceMs) kind.tally.fail(`answered only after ${atOnceMs} ms`);
        if (answer?.status === 429 && !answer.headers.has('retry-after'))
          kind.tally.fail('429 without Retry-After');
        slowest = Math.max(slowest, answer?.afterMs ?? 0);
      });
      notes.push(`${sent} requests held their bodies back; the slowest refusal took ${slowest} ms`);
    },
  };
}
