import { type RawExchange, rawRequest } from '@formline/testing';
import { type Attack, type AttackTarget, sleep } from '../attack';
import { LoopbackAddresses } from '../loopback-http';
import { StatusTally } from '../status-tally';

// Slow clients: hundreds of sockets that declare a body and send it a byte a
// second (anonymous submissions and file uploads, from addresses each within
// their budgets, so they are taken and read), and sockets whose headers never
// end. The gateway must keep serving others while they trickle (shedding
// counts requests being worked on, not sockets waiting on their client), and
// cut headers that never end at its headers limit (408).

const submissions = 300;
const uploads = 40;
const slowHeaders = 60;
/** Sockets an address holds: 20 each, well within the 60 submissions an address may start in a minute. */
const perAddress = 20;
/** The documented default of GATEWAY_HEADERS_TIMEOUT_MS, and a margin for a busy machine. */
const headersLimitMs = 10_000;
const headersMarginMs = 3_000;

export function slowBodies(target: AttackTarget): Attack {
  const addresses = new LoopbackAddresses(10);
  const bodies = new StatusTally('slow bodies');
  const heads = new StatusTally('slow headers');
  const notes: string[] = [];
  return {
    name: 'slow',
    tallies: [bodies, heads],
    notes,
    async run(until) {
      const startedAt = Date.now();
      const trickling: Array<{ exchange: RawExchange; tally: StatusTally; answered?: number }> = [];
      let closing = false;
      const open = (tally: StatusTally, exchange: RawExchange) => {
        const entry: (typeof trickling)[number] = { exchange, tally };
        void exchange.answer.then((answer) => {
          // Closed by us at the end: held, not unanswered.
          if (closing && !answer) return;
          entry.answered = answer?.status ?? 0;
          tally.answer(entry.answered, answer?.headers.get('retry-after') ?? undefined);
        });
        trickling.push(entry);
      };
      const path = `/forms/${target.formId}`;
      const requests = [
        ...Array.from(
          { length: submissions },
          (_, index) => () =>
            open(
              bodies,
              rawRequest(target.base.origin, {
                method: 'POST',
                path: `${path}/submissions`,
                headers: { 'content-type': 'application/json' },
                body: '{"answers":[',
                declaredLength: 4_000,
                localAddress: addresses.at(Math.floor(index / perAddress)),
              }),
            ),
        ),
        ...Array.from(
          { length: uploads },
          (_, index) => () =>
            open(
              bodies,
              rawRequest(target.base.origin, {
                method: 'POST',
                path: `${path}/files/cv?filename=slow.bin`,
                headers: { 'content-type': 'application/octet-stream' },
                body: 'x',
                declaredLength: 1024 * 1024,
                localAddress: addresses.at(100 + Math.floor(index / perAddress)),
              }),
            ),
        ),
        ...Array.from(
          { length: slowHeaders },
          () => () =>
            open(
              heads,
              rawRequest(target.base.origin, {
                method: 'GET',
                path,
                head: `GET ${path} HTTP/1.1\r\nHost: ${target.base.host}\r\nX-Slow: `,
                localAddress: addresses.at(200),
              }),
            ),
        ),
      ];
      // Twenty sockets every 100 ms: a crowd gathering, not one burst.
      for (let index = 0; index < requests.length && Date.now() < until; index++) {
        requests[index]();
        if (index % 20 === 19) await sleep(100);
      }
      // A byte a second on each socket: never silent long enough for the idle limit.
      let turn = 0;
      const trickle = setInterval(() => {
        for (let index = turn++ % 4; index < trickling.length; index += 4)
          trickling[index].exchange.write('a');
      }, 250);
      await sleep(until - Date.now());
      clearInterval(trickle);
      const heldFor = Date.now() - startedAt;
      closing = true;
      for (const entry of trickling) {
        if (entry.answered === undefined) entry.tally.count('held to the end');
        entry.exchange.close();
      }
      if (heldFor >= headersLimitMs + headersMarginMs) {
        const uncut = trickling.filter((entry) => entry.tally === heads && entry.answered !== 408).length;
        if (uncut > 0)
          heads.fail(`${uncut} of ${slowHeaders} unfinished heads not answered 408 within ${heldFor} ms`);
      }
      notes.push(`${trickling.length} sockets held ${Math.round(heldFor / 1000)} s`);
    },
  };
}
