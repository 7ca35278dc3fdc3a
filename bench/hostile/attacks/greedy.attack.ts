import { rawRequest } from '@formline/testing';
import { type Attack, type AttackTarget, errorOf, loopUntil } from '../attack';
import { LoopbackAddresses, sendFrom } from '../loopback-http';
import { StatusTally } from '../status-tally';

// Greedy clients, as two attacks (each its own phase, so that the figures say
// which of them costs the region what): an anonymous client uploading large
// files to a public form until its storage budget in bytes answers 429,
// another uploading small ones until its budget in files does; and an account
// owner minting personal tokens with its password until refused, by the
// account's cap (409) or by the budget of password checks (429). Each goes on
// a little past its refusal, to see the refusal hold.

const mib = 1024 * 1024;
/** Requests sent past the first refusal. */
const pastRefusal = 6;

export function greedyUploads(target: AttackTarget): Attack {
  const addresses = new LoopbackAddresses(12);
  const largeFiles = new StatusTally('anonymous 3 MiB uploads, one address');
  const smallFiles = new StatusTally('anonymous 1 KiB uploads, one address');
  const notes: string[] = [];

  const uploadUntilRefused = async (
    until: number,
    tally: StatusTally,
    from: string,
    bytes: number,
    workers: number,
  ) => {
    const body = Buffer.alloc(bytes, 0x61);
    let stored = 0;
    let past = -1;
    await loopUntil(until, workers, async () => {
      if (past >= pastRefusal) return false;
      const exchange = rawRequest(target.base.origin, {
        method: 'POST',
        path: `/forms/${target.formId}/files/cv?filename=greedy.bin`,
        headers: { 'content-type': 'application/octet-stream' },
        body,
        localAddress: from,
      });
      const answer = await exchange.answer;
      exchange.close();
      const status = answer?.status ?? 0;
      tally.answer(status, answer?.headers.get('retry-after') ?? undefined);
      if (status === 201) stored++;
      else if (status === 429) {
        if (!answer?.headers.has('retry-after')) tally.fail('429 without Retry-After');
        if (past < 0)
          notes.push(
            `${tally.caller}: 429 after ${stored} stored (${Math.round((stored * bytes) / mib)} MiB): ${errorOf(answer?.text ?? '').description}`,
          );
        past = Math.max(past, 0) + 1;
      } else tally.fail(`answered ${status}, not 201 or 429`);
    });
    if (past < 0) tally.fail(`never refused: ${stored} files stored`);
  };

  return {
    name: 'greedy uploads',
    tallies: [largeFiles, smallFiles],
    notes,
    async run(until) {
      await Promise.all([
        uploadUntilRefused(until, largeFiles, addresses.at(1), 3 * mib, 3),
        uploadUntilRefused(until, smallFiles, addresses.at(2), 1024, 4),
      ]);
    },
  };
}

export function greedyTokens(target: AttackTarget): Attack {
  const addresses = new LoopbackAddresses(12);
  const tokens = new StatusTally('personal tokens minted by one account');
  const notes: string[] = [];
  const mintUntilRefused = async (until: number) => {
    const basic = Buffer.from(`${target.owner.email}:${target.owner.password}`).toString('base64');
    let minted = 0;
    let past = -1;
    await loopUntil(until, 8, async (worker) => {
      if (past >= pastRefusal) return false;
      const answer = await sendFrom(target.base, {
        method: 'POST',
        path: '/tokens',
        from: addresses.at(10 + worker),
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'greedy', scopes: ['forms:read'] }),
      });
      tokens.answer(answer.status, answer.headers['retry-after']);
      const refusal =
        answer.status === 409 && errorOf(answer.text).detail === 'TOO_MANY_TOKENS'
          ? '409 TOO_MANY_TOKENS'
          : answer.status === 429 && answer.headers['retry-after'] !== undefined
            ? `429 (${errorOf(answer.text).description ?? ''})`
            : undefined;
      if (answer.status === 201) minted++;
      // Password checks queued past their bound are shed (503 with Retry-After, as promised): go on.
      else if (answer.status === 503 && answer.headers['retry-after'] !== undefined) return;
      else if (refusal) {
        if (past < 0) notes.push(`${tokens.caller}: ${refusal} after ${minted} minted by this run`);
        past = Math.max(past, 0) + 1;
      } else
        tokens.fail(
          `answered ${answer.status} ${errorOf(answer.text).code ?? ''}, not 201, 409 TOO_MANY_TOKENS or 429 with Retry-After`,
        );
    });
    if (past < 0) tokens.fail(`never refused: ${minted} tokens minted`);
  };

  return { name: 'greedy tokens', tallies: [tokens], notes, run: mintUntilRefused };
}
