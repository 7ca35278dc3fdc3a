import { generatePersonalAccessToken } from '@formline/tokens';
import { type Attack, type AttackTarget, loopUntil, sleep } from '../attack';
import { keepAliveAgent, LoopbackAddresses, sendFrom } from '../loopback-http';
import { StatusTally } from '../status-tally';

// Repeated requests: made-up tokens of the right shape from one address, as
// fast as they are answered, each of which would cost the global service a
// look-up, until the address's failed authentications answer 429 with
// Retry-After. Meanwhile a valid token from the same address (checked once
// before) must still be served.

const workers = 6;

export function repeatedTokens(target: AttackTarget): Attack {
  const from = new LoopbackAddresses(13).at(1);
  const madeUp = new StatusTally('made-up tokens, one address');
  const valid = new StatusTally('a valid token, same address');
  const notes: string[] = [];
  return {
    name: 'repeated',
    tallies: [madeUp, valid],
    notes,
    async run(until) {
      const agent = keepAliveAgent();
      const read = (token: string) =>
        sendFrom(target.base, {
          method: 'GET',
          path: `/forms/${target.formId}`,
          from,
          agent,
          headers: { authorization: `bearer ${token}` },
        });
      const warm = await read(target.token);
      if (warm.status !== 200) valid.fail(`a valid token answered ${warm.status} before the flood`);
      let refusedAfter: number | undefined;
      let sent = 0;
      await Promise.all([
        loopUntil(until, workers, async () => {
          const answer = await read(generatePersonalAccessToken());
          sent++;
          madeUp.answer(answer.status, answer.headers['retry-after']);
          if (answer.status === 429) {
            refusedAfter ??= sent;
            if (answer.headers['retry-after'] === undefined) madeUp.fail('429 without Retry-After');
          } else if (answer.status !== 401) madeUp.fail(`answered ${answer.status}, not 401 or 429`);
        }),
        loopUntil(until, 1, async () => {
          const answer = await read(target.token);
          valid.answer(answer.status, answer.headers['retry-after']);
          if (answer.status !== 200) valid.fail(`answered ${answer.status}, not 200`);
          await sleep(250);
        }),
      ]);
      agent.destroy();
      if (refusedAfter === undefined) madeUp.fail(`${sent} made-up tokens, none refused 429`);
      else notes.push(`${madeUp.caller}: first 429 at request ${refusedAfter} of ${sent}`);
    },
  };
}
