import { imageSizes } from '@formline/contracts';
import { type Attack, type AttackTarget, sleep } from '../attack';
import { LoopbackAddresses, sendFrom } from '../loopback-http';
import { StatusTally } from '../status-tally';

// An image stampede: at once, several anonymous first requests for every
// size of large images (25 megapixels each) none of whose sizes exist yet,
// so that the renders outnumber what the render pool runs and queues. Each
// must answer 200 or 503 with Retry-After (the pool is full), never another
// 5xx; a refused size is asked again after its Retry-After until the phase
// ends, and must then render.

/** Requests for each size in the first burst. */
const copies = 3;
/** A queued render on a busy machine may take this long. */
const renderTimeoutMs = 60_000;

export function imageStampede(target: AttackTarget): Attack {
  const addresses = new LoopbackAddresses(14);
  const burst = new StatusTally('first requests for new sizes, at once');
  const retries = new StatusTally('refused sizes asked again after Retry-After');
  const notes: string[] = [];
  const variants = target.imageIds.flatMap((id) =>
    Object.entries(imageSizes).flatMap(([kind, sizes]) =>
      sizes.map((size) => `/images/${id}/${kind}/${size}`),
    ),
  );
  let sent = 0;
  const get = async (path: string, tally: StatusTally) => {
    const answer = await sendFrom(target.base, {
      method: 'GET',
      path,
      from: addresses.at(sent++),
      timeoutMs: renderTimeoutMs,
    });
    tally.answer(answer.status, answer.headers['retry-after']);
    if (answer.status !== 200 && answer.status !== 503)
      tally.fail(`answered ${answer.status}, not 200 or 503`);
    return { ...answer, retryAfterS: Number(answer.headers['retry-after'] ?? 1) };
  };
  return {
    name: 'images',
    tallies: [burst, retries],
    notes,
    async run(until) {
      const startedAt = Date.now();
      const first = await Promise.all(
        variants.flatMap((path) =>
          Array.from({ length: copies }, () => get(path, burst).then((answer) => ({ path, answer }))),
        ),
      );
      const slowest = Math.max(...first.map(({ answer }) => answer.ms));
      const served = new Set(first.filter(({ answer }) => answer.status === 200).map(({ path }) => path));
      notes.push(
        `${variants.length} new sizes of ${target.imageIds.length} images, ${first.length} requests at once: ` +
          `${served.size} sizes served in ${Math.round((Date.now() - startedAt) / 100) / 10} s (slowest answer ${Math.round(slowest)} ms)`,
      );
      let refused = variants.filter((path) => !served.has(path));
      const wait = Math.max(
        1,
        ...first.map(({ answer }) => (answer.status === 503 ? answer.retryAfterS : 0)),
      );
      while (refused.length > 0 && Date.now() + wait * 1000 < until) {
        await sleep(wait * 1000);
        const again = await Promise.all(
          refused.map((path) => get(path, retries).then((answer) => ({ path, answer }))),
        );
        for (const { path, answer } of again) if (answer.status === 200) served.add(path);
        refused = variants.filter((path) => !served.has(path));
      }
      notes.push(`${served.size} of ${variants.length} sizes served by the phase's end`);
    },
  };
}
