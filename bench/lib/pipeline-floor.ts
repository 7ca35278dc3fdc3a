import { benchCpuMs, cpuMs, infraCpuMs } from './bench-stack';
import { type Context, progress, round1, webhookSecret } from './bench-run';
import { BenchChild } from './child';
import { cpuSpent, describeShares, perRequestUs } from './machine-cpu';
import { type OpenLoopRound, openLoopRound } from './open-loop-round';
import { RawFloor } from './raw-floor';

// The pipeline's floor (baseline/pipeline-floor.server.ts: bare Fastify, the
// raw transaction, one signed POST to the bench's receiver, one process) run
// open loop at the rates it is given, as the pipeline stage runs the product:
// what the whole path costs on this stack with none of the product in it.

export interface FloorStep extends OpenLoopRound {
  rate: number;
  passed: boolean;
  /** µs of CPU per delivered submission: `machine`, and each process named. */
  cpu: Record<string, number>;
}

export async function pipelineFloorSteps(
  c: Context,
  rates: number[],
  seconds: number,
  background: number,
  passes: (round: OpenLoopRound & { rate: number }) => boolean,
): Promise<FloorStep[]> {
  const raw = await RawFloor.open(c);
  const server = BenchChild.start('baseline/pipeline-floor.server.js', {
    databaseUrl: raw.databaseUrl,
    receiverUrl: c.receiver.url('/floor'),
    secret: webhookSecret,
    ...raw.input(),
  });
  try {
    const { url: base } = await server.ready<{ url: string }>();
    const url = `${base}/forms/floor/submissions`;
    await openLoopRound(c, url, 20, 2); // warm-up
    const steps: FloorStep[] = [];
    for (const rate of rates) {
      const spent = cpuSpent(
        () => ({
          server: cpuMs(server.child.pid),
          PostgreSQL: infraCpuMs(c.infra).postgres,
          'bench (sender, receiver)': benchCpuMs(),
        }),
        background,
      );
      const result = await openLoopRound(c, url, rate, seconds);
      const cpu = perRequestUs(spent(), result.accepted - result.lost);
      const step = { ...result, rate, passed: passes({ ...result, rate }), cpu };
      progress(`  pipeline floor ${describeFloorStep(step)}`);
      steps.push(step);
    }
    return steps;
  } finally {
    await server.stop();
    await raw.close();
  }
}

export function describeFloorStep(step: FloorStep): string {
  return [
    `${step.rate}/s: ${step.passed ? 'passed' : 'FAILED'}`,
    `accepted ${round1(step.acceptedPerSecond)}/s`,
    `refused ${step.refused}, lost ${step.lost}`,
    `delivery p50 ${round1(step.p50)} p99 ${round1(step.p99)} ms`,
    `machine CPU per delivered submission, µs: ${describeShares(step.cpu)}`,
  ].join(' | ');
}
