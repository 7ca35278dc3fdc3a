import { dispatcherConfigSchema } from '@formline/app-config';
import { type AppName, appNames, type RegionStack } from '@formline/stack';
import { type BenchInfra } from './bench-stack';
import { type Figure } from './figures';
import { type BenchReceiver } from './receiver';
import { round } from './stats';

// What the stages of `npm run bench` share: the run's settings, its context
// (the stack, the receiver, the demo token and forms, the figures so far) and
// small helpers.
// Settings (environment): BENCH_ROUNDS (3), BENCH_SECONDS (6, one closed-loop
// round), BENCH_CONNECTIONS (50), BENCH_BACKLOG (1000 deliveries per dispatcher
// round), BENCH_ONLY (comma-separated: read,intake,delivery,dispatcher,pipeline,
// and data-scale, which runs only when named; `none` runs no stage, only the
// memory figures). The pipeline stage's: BENCH_PIPELINE_RATES (100,200,300,400,600,800
// submissions/s, one step each, until one fails), BENCH_PIPELINE_SECONDS (15 a
// step), BENCH_PIPELINE_SUSTAIN (0: no sustained step at the capacity found;
// 60 for a full run). The data-scale stage's:
// BENCH_SCALE_SIZES (10000,1000000: the small and the big form's responses),
// BENCH_SCALE_SAMPLES (15 calls of each kind on each form), BENCH_KEEP_DATA=1
// (keep the databases of the last run: a form already seeded is not seeded again).
// The five default stages take about 8 minutes on a quiet 2-core machine;
// each progress line says how long the run has been going.
export const settings = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  backlog: Number(process.env.BENCH_BACKLOG ?? 1000),
  // 200/s for 20 s is the issue's; 50/s has no target, a shorter round does.
  deliverySeconds: { 50: 6, 200: 20 } as Record<number, number>,
  only: process.env.BENCH_ONLY?.split(',') ?? [
    'read',
    'intake',
    'delivery',
    'dispatcher',
    'pipeline',
    'console',
  ],
  pipeline: {
    rates: (process.env.BENCH_PIPELINE_RATES ?? '100,200,300,400,600,800').split(',').map(Number),
    seconds: Number(process.env.BENCH_PIPELINE_SECONDS ?? 15),
    sustainSeconds: Number(process.env.BENCH_PIPELINE_SUSTAIN ?? 0),
  },
  scale: {
    sizes: (process.env.BENCH_SCALE_SIZES ?? '10000,1000000').split(',').map(Number),
    samples: Number(process.env.BENCH_SCALE_SAMPLES ?? 15),
  },
  keepData: process.env.BENCH_KEEP_DATA === '1',
  // PostgreSQL's time per delivered submission, statement by statement, in
  // each pipeline step (pg_stat_statements loaded for the run).
  pgStatements: process.env.BENCH_PG_STATEMENTS === '1',
};

export const submission = JSON.stringify({
  answers: [
    { field: { ref: 'name' }, type: 'text', text: 'Ada Lovelace' },
    { field: { ref: 'rating' }, type: 'number', number: 4 },
  ],
});

export const webhookSecret = 'bench-webhook-secret';

// The dispatcher's concurrency as the bench's dispatchers run it: the bench
// sets no DISPATCHER_CONCURRENCY, so its config's default, read from the
// config's own schema. The raw BullMQ baseline works as many jobs at once,
// and the slow-receiver rounds' bound is this over the receiver's delay.
export const dispatcherConcurrency: number =
  dispatcherConfigSchema.shape.DISPATCHER_CONCURRENCY.parse(undefined);

export const apps: readonly AppName[] = appNames;

export const benchStarted = Date.now();

export function progress(text: string): void {
  const elapsed = Math.round((Date.now() - benchStarted) / 1000);
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)} +${elapsed}s] ${text}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Context {
  infra: BenchInfra;
  stack: RegionStack;
  receiver: BenchReceiver;
  token: string;
  readFormId: string;
  deliveryFormId: string;
  figures: Figure[];
  /** The raw transaction on plain tables, once a stage measured it (lib/raw-floor.ts). */
  rawFloor?: RawFloorFigures;
}

// The plain raw floor's rounds in this run, for every stage set against it.
export interface RawFloorFigures {
  /** Transactions per second, one per round. */
  txPerSecond: number[];
  /** The whole machine's CPU per transaction, less its background, µs. */
  machineUs: number[];
}

export const below = (bound: number) => ({ kind: 'value-below' as const, bound });

export function roundAll(values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, round(v)]));
}

export async function api(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return {
    text,
    etag: response.headers.get('etag') ?? '',
    json: text ? (JSON.parse(text) as unknown) : null,
  };
}

export async function waitFor(done: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done()) return true;
    await sleep(200);
  }
  return false;
}

// Until deliveries stop arriving (a backlog drained), at most 30 s.
export async function quiet(receiver: BenchReceiver): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = -1;
  while (Date.now() < deadline && receiver.arrivals.size !== last) {
    last = receiver.arrivals.size;
    await sleep(2000);
  }
}

// n accepted submissions, 10 at a time; a refused one (an overloaded stack) is sent again.
export async function submitMany(url: string, n: number): Promise<void> {
  let accepted = 0;
  let inFlight = 0;
  let refused = 0;
  const worker = async () => {
    while (accepted + inFlight < n) {
      inFlight += 1;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: submission,
      });
      await response.arrayBuffer();
      inFlight -= 1;
      if (response.status === 201) accepted += 1;
      else if ((refused += 1) > n) throw new Error(`submissions refused (last: ${response.status})`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}

export function round1(value: number): number {
  return round(value, 1);
}
