import { BenchChild } from './child';
import { type Context, quiet, submission } from './bench-run';
import { percentile } from './stats';

// One open-loop round against a form with one webhook: submissions at `rate`
// for `seconds` (load/open-loop.sender.ts, whatever the answers do), then
// from each 201 to the signed delivery at the receiver. What has not arrived
// 30 s after the last answer is lost; what was not 201 within 10 s is refused.
export interface OpenLoopRound {
  /** Delivery after acceptance, ms (201 at the sender to arrival at the receiver). */
  p50: number;
  p99: number;
  lost: number;
  accepted: number;
  /** Accepted submissions per second, from the first request to the last answer. */
  acceptedPerSecond: number;
  /** Submissions the sender sent per second, from its first send to its last. */
  offeredPerSecond: number;
  refused: number;
  /** Deliveries of a token that had already arrived. */
  duplicates: number;
  /** The sender's own request latency of the accepted submissions, ms. */
  intake: { p50: number; p99: number };
}

// A round at a stated rate, judged: whether it passed, and the machine's CPU
// per delivered submission (`machine`, and each process named).
export interface OpenLoopStep extends OpenLoopRound {
  rate: number;
  passed: boolean;
  cpu: Record<string, number>;
}

interface SenderResult {
  accepted: Array<[string, number]>;
  failed: number;
  latency: { p50: number; p99: number };
  elapsedMs: number;
  offeredPerSecond: number;
}

export async function openLoopRound(
  c: Context,
  url: string,
  rate: number,
  seconds: number,
): Promise<OpenLoopRound> {
  c.receiver.reset();
  const sent = await BenchChild.start('load/open-loop.sender.js', {
    url,
    rate,
    seconds,
    body: submission,
  }).result<SenderResult>();
  await c.receiver.until(sent.accepted.length, 30_000);
  const latencies: number[] = [];
  let lost = 0;
  for (const [token, acceptedAt] of sent.accepted) {
    const arrived = c.receiver.arrivals.get(token);
    // A delivery may beat the 201 back to the sender: that counts as no wait.
    if (arrived === undefined) lost += 1;
    else latencies.push(Math.max(0, arrived - acceptedAt));
  }
  if (lost > 0) await quiet(c.receiver);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    lost,
    accepted: sent.accepted.length,
    acceptedPerSecond: (sent.accepted.length * 1000) / Math.max(1, sent.elapsedMs),
    offeredPerSecond: sent.offeredPerSecond,
    refused: sent.failed,
    duplicates: c.receiver.duplicates,
    intake: sent.latency,
  };
}
