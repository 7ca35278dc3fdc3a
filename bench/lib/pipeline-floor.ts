import { benchCpuMs, cpuMs, infraCpuMs } from './bench-stack';
import { type Context, progress, round1, webhookSecret } from './bench-run';
import { BenchChild } from './child';
import { type Figure, figure } from './figures';
import { cpuSpent, describeShares, perRequestUs } from './machine-cpu';
import { type OpenLoopRound, openLoopRound, type OpenLoopStep } from './open-loop-round';
import { RawFloor } from './raw-floor';

// The pipeline's floor (baseline/pipeline-floor.server.ts: bare Fastify, the
// raw transaction, one signed POST to the bench's receiver, one process) run
// open loop at the rates it is given, as the pipeline stage runs the product:
// what the whole path costs on this stack with none of the product in it.

export async function pipelineFloorSteps(
  c: Context,
  rates: number[],
  seconds: number,
  background: number,
  passes: (round: OpenLoopRound & { rate: number }) => boolean,
): Promise<OpenLoopStep[]> {
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
    const steps: OpenLoopStep[] = [];
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

export function describeFloorStep(step: OpenLoopStep): string {
  return [
    `${step.rate}/s: ${step.passed ? 'passed' : 'FAILED'}`,
    `offered ${round1(step.offeredPerSecond)}/s, accepted ${round1(step.acceptedPerSecond)}/s`,
    `refused ${step.refused}, lost ${step.lost}`,
    `delivery p50 ${round1(step.p50)} p99 ${round1(step.p99)} ms`,
    `machine CPU per delivered submission, µs: ${describeShares(step.cpu)}`,
  ].join(' | ');
}

// The floor's figures: its CPU per delivered submission against the raw
// transaction's (what any whole path costs before the product's own work),
// the product's against the floor's at the same rate, and the floor at the
// capacity target's rate (what this stack does there with none of the product).
export function floorFigures(
  capacity: { rate: number; cpu: Record<string, number> } | undefined,
  steps: OpenLoopStep[],
  raw: { txPerSecond: number[]; machineUs: number[] },
): Figure[] {
  const atCapacity = capacity ? steps.find((step) => step.rate === capacity.rate) : undefined;
  const atTarget = steps.at(-1)!;
  const figures: Figure[] = [];
  if (capacity && atCapacity) {
    figures.push(
      {
        ...figure(
          'pipeline floor: machine CPU per delivered submission at capacity',
          'µs',
          [atCapacity.cpu.machine],
          raw.machineUs,
          null,
          false,
        ),
        note: `${describeFloorStep(atCapacity)}; the baseline is the raw transaction`,
      },
      figure(
        'pipeline: machine CPU per delivered submission against the pipeline floor',
        'µs',
        [capacity.cpu.machine],
        [atCapacity.cpu.machine],
        null,
      ),
    );
  }
  figures.push(
    {
      ...figure(
        'pipeline floor: accepted at the capacity target',
        'submissions/s',
        [atTarget.acceptedPerSecond],
        raw.txPerSecond,
        null,
        false,
      ),
      note: describeFloorStep(atTarget),
    },
    figure(
      'pipeline floor: machine CPU per delivered submission at the capacity target',
      'µs',
      [atTarget.cpu.machine],
      raw.machineUs,
      null,
      false,
    ),
  );
  return figures;
}
