import { deliveryStages, describeStages, type StageName, stageNames } from '../lib/delivery-stages';
import { figure } from '../lib/figures';
import { percentile } from '../lib/stats';
import { below, type Context, progress, round1, settings } from '../lib/bench-run';
import { openLoopRound } from '../lib/open-loop-round';

// Open-loop submissions to a form with one webhook: from each 201 to the
// signed delivery at the receiver; what never arrives within 30 s is lost.
export async function deliveryLatency(c: Context): Promise<void> {
  const url = `${c.stack.baseUrl}/forms/${c.deliveryFormId}/submissions`;
  progress('delivery latency: open-loop submissions -> signed webhook received');
  await openLoopRound(c, url, 20, 2); // warm-up
  const results: Record<number, { p50: number[]; p99: number[]; lost: number[]; refused: number[] }> = {};
  const stageP50s = Object.fromEntries(
    [50, 200].map((rate) => [rate, Object.fromEntries(stageNames.map((name) => [name, [] as number[]]))]),
  ) as Record<number, Record<StageName, number[]>>;
  for (let round = 1; round <= settings.rounds; round++) {
    for (const rate of [50, 200]) {
      const r = await openLoopRound(c, url, rate, settings.deliverySeconds[rate]);
      // Each stage's share, from the timestamps the pipeline stored.
      const stages = await deliveryStages(c.infra.databaseHostUrl, 'us', c.receiver.arrivals);
      for (const name of stageNames) stageP50s[rate][name].push(percentile(stages.stages[name], 50));
      results[rate] ??= { p50: [], p99: [], lost: [], refused: [] };
      results[rate].p50.push(r.p50);
      results[rate].p99.push(r.p99);
      results[rate].lost.push(r.lost);
      results[rate].refused.push(r.refused);
      progress(
        `  round ${round} at ${rate}/s: p50 ${round1(r.p50)} ms, p99 ${round1(r.p99)} ms, lost ${r.lost} of ${r.accepted}, refused ${r.refused}`,
      );
      progress(`    stages (ms, ${stages.traced} traced): ${describeStages(stages)}`);
    }
  }
  for (const rate of [50, 200]) {
    const target = rate === 200;
    c.figures.push(
      figure(`delivery at ${rate}/s: p50`, 'ms', results[rate].p50, undefined, target ? below(20) : null),
      figure(`delivery at ${rate}/s: p99`, 'ms', results[rate].p99, undefined, target ? below(100) : null),
      figure(
        `delivery at ${rate}/s: lost`,
        'deliveries',
        results[rate].lost,
        undefined,
        target ? { kind: 'value-at-most', bound: 0 } : null,
      ),
      figure(
        `delivery at ${rate}/s: submissions refused`,
        'requests',
        results[rate].refused,
        undefined,
        null,
      ),
      ...stageNames.map((name) =>
        figure(`delivery at ${rate}/s: ${name} p50`, 'ms', stageP50s[rate][name], undefined, null),
      ),
    );
  }
}
