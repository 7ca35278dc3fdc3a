import { type Attack, type AttackTarget, errorOf, loopUntil } from '../attack';
import { LoopbackAddresses, sendFrom } from '../loopback-http';
import { StatusTally } from '../status-tally';

// Partial saves under the progress key of a response already completed, with
// answers and with the key alone, from a few addresses as fast as answered:
// each must be refused 409 (RESPONSE_COMPLETED) telling nothing of that
// response, or 429 once the addresses' budgets for partial saves are spent.

const addressCount = 4;

export function partialSaves(target: AttackTarget): Attack {
  const addresses = new LoopbackAddresses(15);
  const saves = new StatusTally("partial saves under a completed response's key");
  const notes: string[] = [];
  return {
    name: 'partial',
    tallies: [saves],
    notes,
    async run(until) {
      const { progressKey, token, text } = target.completed;
      let sent = 0;
      await loopUntil(until, addressCount, async (worker) => {
        const answers =
          sent++ % 2 === 0 ? [{ field: { ref: 'name' }, type: 'text', text: 'Overwritten' }] : [];
        const answer = await sendFrom(target.base, {
          method: 'POST',
          path: `/forms/${target.formId}/submissions/partial`,
          from: addresses.at(worker),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ progress_key: progressKey, answers }),
        });
        saves.answer(answer.status, answer.headers['retry-after']);
        if (answer.text.includes(token) || answer.text.includes(text))
          saves.fail(`answered ${answer.status} with the completed response's token or answers`);
        if (answer.status === 409) {
          if (errorOf(answer.text).detail !== 'RESPONSE_COMPLETED')
            saves.fail('409 without the RESPONSE_COMPLETED detail');
        } else if (answer.status === 429) {
          if (answer.headers['retry-after'] === undefined) saves.fail('429 without Retry-After');
        } else saves.fail(`answered ${answer.status}, not 409 or 429`);
      });
      notes.push(`${sent} saves from ${addressCount} addresses`);
    },
  };
}
