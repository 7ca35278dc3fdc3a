import { benchCpuMs, cpuMs, infraCpuMs } from '../lib/bench-stack';
import { type Figure, figure, type Target } from '../lib/figures';
import { backgroundCores, cpuSpent, describeShares, perRequestUs } from '../lib/machine-cpu';
import { type OpenLoopRound, openLoopRound, type OpenLoopStep } from '../lib/open-loop-round';
import { PgStatements } from '../lib/pg-statements';
import { PipelineDrain } from '../lib/pipeline-drain';
import { floorFigures, pipelineFloorSteps } from '../lib/pipeline-floor';
import { plainRawFloor } from '../lib/raw-floor';
import { median, round } from '../lib/stats';
import { below, type Context, progress, round1, settings } from '../lib/bench-run';

// The submission pipeline's limit: the whole path accepted -> stored ->
// delivered to one enabled webhook, at rising open-loop rates
// (BENCH_PIPELINE_RATES, BENCH_PIPELINE_SECONDS a step) until a step fails.
// Capacity is the highest rate that passed, set against the plain raw
// transaction's tx/s in the same run: the least a submission's write costs
// on this machine, with none of the pipeline behind it.

// A step passes with every submission accepted (201 within 10 s), none lost
// (not received 30 s after the last answer) and delivery p99 within this...
const passingP99Ms = 250;
// ... and the rate kept, both ways: an open-loop sender short of CPU (a full
// machine) sends late, so a step whose sender offered less than this share of
// its rate did not run at that rate; and one whose answers came back at less
// than this share of it (first request to last answer) queued the rest.
const keptShare = 0.95;

export async function pipeline(c: Context): Promise<void> {
  const url = `${c.stack.baseUrl}/forms/${c.deliveryFormId}/submissions`;
  const { rates, seconds, sustainSeconds } = settings.pipeline;
  const floor = await plainRawFloor(c);
  progress(
    `pipeline: accepted -> stored -> delivered, open loop at ${rates.join(', ')}/s, ${seconds} s a step, until refused, lost, delivery p99 > ${passingP99Ms} ms or offered or accepted < ${keptShare} of the rate`,
  );
  const drain = await PipelineDrain.open(c);
  const statements = settings.pgStatements ? await PgStatements.open(c.infra.databaseHostUrl) : undefined;
  try {
    await openLoopRound(c, url, 20, 2); // warm-up
    await drain.drained();
    const background = await backgroundCores(2000);
    progress(`  machine busy with no load: ${round(background, 3)} cores (taken off the CPU per delivery)`);
    if (background > 0.25) {
      progress(
        '  (the machine is busy with other work: its CPU figures are unreliable, the per-process ones hold)',
      );
    }
    const steps: OpenLoopStep[] = [];
    for (const rate of rates) {
      const step = await pipelineStep(c, drain, url, rate, seconds, background, statements);
      steps.push(step);
      progress(`  ${describeStep(step)}`);
      if (!step.passed) break;
    }
    const capacity = steps.filter((step) => step.passed).at(-1);
    const failed = steps.find((step) => !step.passed);
    const note = failed
      ? `first failing step: ${describeStep(failed)}`
      : `every step passed: capacity is at least ${capacity?.rate}/s (add higher BENCH_PIPELINE_RATES)`;
    c.figures.push(...capacityFigures(capacity, floor, note));
    if (capacity && sustainSeconds > 0) {
      progress(`  sustaining ${capacity.rate}/s for ${sustainSeconds} s`);
      const sustained = await pipelineStep(
        c,
        drain,
        url,
        capacity.rate,
        sustainSeconds,
        background,
        statements,
      );
      progress(`  ${describeStep(sustained)}`);
      c.figures.push(...sustainFigures(sustained, sustainSeconds, floor));
    }
    // The same path with none of the product in it (after the product's
    // steps, so its rows never share their tables' pages or the machine with
    // them), at the capacity found (CPU compared at the same rate) and at the
    // capacity target's rate.
    const targetRate = Math.round(median(floor.txPerSecond) * 0.5);
    progress(
      `pipeline floor: bare Fastify, the raw transaction and one signed POST, at ${capacity?.rate ?? '-'} and ${targetRate}/s`,
    );
    const floorSteps = await pipelineFloorSteps(
      c,
      [...(capacity ? [capacity.rate] : []), targetRate],
      seconds,
      background,
      passes,
    );
    c.figures.push(...floorFigures(capacity, floorSteps, floor));
  } finally {
    await drain.close();
    await statements?.close();
  }
}

// One step: the open-loop round, then until every accepted submission has
// arrived and the pipeline has drained; the CPU of all that, per delivery.
async function pipelineStep(
  c: Context,
  drain: PipelineDrain,
  url: string,
  rate: number,
  seconds: number,
  background: number,
  statements?: PgStatements,
): Promise<OpenLoopStep> {
  await statements?.reset();
  const spent = cpuSpent(() => {
    const infra = infraCpuMs(c.infra);
    return {
      gateway: cpuMs(c.stack.app('gateway').pid),
      responses: cpuMs(c.stack.app('responses').pid),
      webhooks: cpuMs(c.stack.app('webhooks').pid),
      dispatcher: cpuMs(c.stack.app('dispatcher').pid),
      NATS: infra.nats,
      Redis: infra.redis,
      PostgreSQL: infra.postgres,
      'bench (sender, receiver)': benchCpuMs(),
    };
  }, background);
  const result = await openLoopRound(c, url, rate, seconds);
  await drain.drained();
  const cpu = perRequestUs(spent(), result.accepted - result.lost);
  for (const line of (await statements?.describe(result.accepted - result.lost)) ?? [])
    progress(`    ${line}`);
  // The machine's other processes (another tenant's, on a shared machine,
  // beyond the background taken off): what the named ones leave of its figure.
  const { machine, ...parts } = cpu;
  cpu.other = machine - Object.values(parts).reduce((sum, us) => sum + us, 0);
  return { ...result, rate, passed: passes({ ...result, rate }), cpu };
}

function passes(result: OpenLoopRound & { rate: number }): boolean {
  return (
    result.refused === 0 &&
    result.lost === 0 &&
    result.p99 <= passingP99Ms &&
    result.offeredPerSecond >= result.rate * keptShare &&
    result.acceptedPerSecond >= result.rate * keptShare
  );
}

function describeStep(step: OpenLoopStep): string {
  return [
    `${step.rate}/s: ${step.passed ? 'passed' : 'FAILED'}`,
    `offered ${round1(step.offeredPerSecond)}/s, accepted ${round1(step.acceptedPerSecond)}/s`,
    `refused ${step.refused}, lost ${step.lost}, duplicates ${step.duplicates}`,
    `intake p50 ${round1(step.intake.p50)} p99 ${round1(step.intake.p99)} ms`,
    `delivery p50 ${round1(step.p50)} p99 ${round1(step.p99)} ms`,
    `machine CPU per delivered submission, µs: ${describeShares(step.cpu)}`,
  ].join(' | ');
}

const withNote = (f: Figure, note: string): Figure => ({ ...f, note });

// At the capacity found: the rate against the raw floor's tx/s, its delivery
// latency, and the machine's CPU per delivery against the floor's per tx.
// No step passed: the figures are NaN (null in the JSON) and not met.
function capacityFigures(
  capacity: OpenLoopStep | undefined,
  floor: { txPerSecond: number[]; machineUs: number[] },
  note: string,
): Figure[] {
  const at = (value: (step: OpenLoopStep) => number) => [capacity ? value(capacity) : Number.NaN];
  return [
    withNote(
      figure(
        'pipeline: capacity (highest passing open-loop rate)',
        'submissions/s',
        [capacity?.rate ?? 0],
        floor.txPerSecond,
        { kind: 'ratio-at-least', bound: 0.5 },
        false,
      ),
      note,
    ),
    figure(
      'pipeline: delivery p50 at capacity',
      'ms',
      at((s) => s.p50),
      undefined,
      below(20),
    ),
    figure(
      'pipeline: delivery p99 at capacity',
      'ms',
      at((s) => s.p99),
      undefined,
      below(100),
    ),
    figure(
      'pipeline: intake p99 at capacity',
      'ms',
      at((s) => s.intake.p99),
      undefined,
      null,
    ),
    figure(
      'pipeline: machine CPU per delivered submission at capacity',
      'µs',
      at((s) => s.cpu.machine),
      floor.machineUs,
      { kind: 'ratio-at-most', bound: 2 },
      false,
    ),
  ];
}

// The capacity rate held for BENCH_PIPELINE_SUSTAIN seconds: whether it
// lasts (a backlog that grows slowly shows only over a longer step).
function sustainFigures(
  step: OpenLoopStep,
  seconds: number,
  floor: { txPerSecond: number[]; machineUs: number[] },
): Figure[] {
  // Named without the rate, so runs that found another capacity still compare.
  const name = (what: string) => `pipeline sustained at capacity: ${what}`;
  const none: Target = { kind: 'value-at-most', bound: 0 };
  const held = `${seconds} s at ${step.rate}/s`;
  return [
    withNote(
      figure(name('accepted'), 'submissions/s', [step.acceptedPerSecond], floor.txPerSecond, null, false),
      held,
    ),
    figure(name('delivery p50'), 'ms', [step.p50], undefined, below(20)),
    figure(name('delivery p99'), 'ms', [step.p99], undefined, below(100)),
    figure(name('refused'), 'requests', [step.refused], undefined, none),
    figure(name('lost'), 'deliveries', [step.lost], undefined, none),
    figure(
      name('machine CPU per delivered submission'),
      'µs',
      [step.cpu.machine],
      floor.machineUs,
      { kind: 'ratio-at-most', bound: 2 },
      false,
    ),
  ];
}
