import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { largeTestImage } from '@formline/testing';
import { percentile } from '../lib/stats';
import { type Attack, type AttackTarget, sleep } from './attack';
import { earlyBodies } from './attacks/early-bodies.attack';
import { greedyTokens, greedyUploads } from './attacks/greedy.attack';
import { imageStampede } from './attacks/image-stampede.attack';
import { partialSaves } from './attacks/partial-saves.attack';
import { repeatedTokens } from './attacks/repeated-tokens.attack';
import { slowBodies } from './attacks/slow-bodies.attack';
import { sendFrom } from './loopback-http';
import type { CallKind, CallSample } from './normal-caller';
import { NormalCallerThread } from './normal-caller.thread';

// `npm run check:hostile`: the outside check of hostile clients, against a
// region started by `npm start` (region us), from this machine's loopback
// addresses only. A normal caller reads the demo form with the demo token and
// submits to it at a steady rate while slow, early, greedy and repeated
// clients, an image stampede and partial saves under a completed response's
// key run one phase after another, then all together. It prints, per phase,
// the normal caller's latency against its quiet baseline measured in the same
// run (alone, before the first attack and after the last), its statuses, the
// CPU the check itself and the machine used, and the attackers' statuses; it exits 1 when the
// normal caller got anything but its 200/201 or was slowed past the bounds
// below, or an attacker got an answer the gateway does not promise (a 500, a
// 5xx other than 503 with Retry-After, a refusal that waited for the body).
//
// The attacker is an account of its own, made with the operators' command
// (`npm run admin -- create-account`) at each run, with its own public form.
// Settings (environment): HOSTILE_BASE_URL (http://127.0.0.1:$US_HTTP_PORT,
// 3000), DATA_DIR (where `npm start` keeps demo-tokens.json), the latency
// bounds HOSTILE_P50_RATIO (3) and HOSTILE_P99_RATIO (5) of the baseline, with
// floors HOSTILE_P50_FLOOR_MS (50) and HOSTILE_P99_FLOOR_MS (500) under which
// a phase is never called slow (a quiet loopback answers in a few ms, where a
// ratio alone would fail on noise).

const env = process.env;
const root = path.resolve(__dirname, '../../..');
const base = new URL(env.HOSTILE_BASE_URL ?? `http://127.0.0.1:${env.US_HTTP_PORT ?? 3000}`);
const dataDir = env.DATA_DIR ?? path.join(root, '.data/dev');
const globalDatabaseUrl =
  env.GLOBAL_DATABASE_URL ??
  `${env.DATABASE_HOST_URL ?? 'postgresql://postgres@127.0.0.1:15432'}/formline_global`;
const bounds = {
  p50Ratio: Number(env.HOSTILE_P50_RATIO ?? 3),
  p99Ratio: Number(env.HOSTILE_P99_RATIO ?? 5),
  p50FloorMs: Number(env.HOSTILE_P50_FLOOR_MS ?? 50),
  p99FloorMs: Number(env.HOSTILE_P99_FLOOR_MS ?? 500),
};
const baselineSeconds = 10;
/**
 * The normal caller alone, before the first attack and after the last: the
 * machine is shared (other processes come and go over a run of minutes), so
 * the baseline is both together, and each is printed to show the drift.
 */
const quietPhases = ['quiet before', 'quiet after'];
const attackKinds = {
  slow: slowBodies,
  early: earlyBodies,
  'greedy-uploads': greedyUploads,
  'greedy-tokens': greedyTokens,
  repeated: repeatedTokens,
  images: imageStampede,
  partial: partialSaves,
};
type AttackKind = keyof typeof attackKinds;
const kindNames = Object.keys(attackKinds) as AttackKind[];
const allPhases: Array<{ name: string; seconds: number; attacks: AttackKind[] }> = [
  ...kindNames.map((kind) => ({
    name: kind,
    seconds: kind.startsWith('greedy') || kind === 'images' ? 20 : kind === 'slow' ? 15 : 12,
    attacks: [kind],
  })),
  { name: 'together', seconds: 20, attacks: kindNames },
];
// HOSTILE_PHASES (comma separated names) runs only those, to look at one closely.
const chosenPhases = (env.HOSTILE_PHASES ?? '').split(',').filter(Boolean);
const phases = allPhases.filter((phase) => chosenPhases.length === 0 || chosenPhases.includes(phase.name));
/** Large images a stampede asks sizes of: 3 × 13 sizes outnumber the render pool's 2 running and 32 waiting. */
const imagesPerStampede = 3;
const started = Date.now();

function log(line: string): void {
  process.stderr.write(`[${String(Math.round((Date.now() - started) / 1000)).padStart(3)} s] ${line}\n`);
}

async function main(): Promise<number> {
  const demo = demoCaller();
  const probe = await sendFrom(base, {
    method: 'GET',
    path: `/forms/${demo.formId}`,
    from: '127.0.0.2',
    headers: { authorization: `bearer ${demo.token}` },
  });
  if (probe.status !== 200) {
    process.stderr.write(
      `The region at ${base.origin} did not serve the demo form (${probe.status || probe.error}): start it with \`npm start\` first.\n`,
    );
    return 2;
  }
  log(
    `region at ${base.origin}; load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
  );
  const prepared = await prepareAttacker();
  log(
    `attacker account ${prepared.owner.email}, form ${prepared.formId}, ${prepared.imageIds.length} large images`,
  );

  const caller = new NormalCallerThread({
    base,
    token: demo.token,
    formId: demo.formId,
    readsPerSecond: 8,
    submitsPerSecond: 3,
  });
  caller.phase = 'warm-up';
  await sleep(2_000);
  const quiet = async (name: string) => {
    caller.phase = name;
    log(`${name}: the normal caller alone for ${baselineSeconds} s`);
    const cpu = new CpuUse();
    await sleep(baselineSeconds * 1000);
    return cpu.read();
  };
  const quietCpu = [await quiet(quietPhases[0])];

  const results: PhaseResult[] = [];
  for (const phase of phases) {
    caller.phase = 'between';
    await sleep(1_500);
    // Each stampede asks for sizes of images of its own: none of them rendered yet.
    const imageIds = prepared.imageIds
      .slice(phase.name === 'together' ? imagesPerStampede : 0)
      .slice(0, imagesPerStampede);
    // And a form of its own each: one attack spending a form's budgets does not answer for another.
    const attacks = phase.attacks.map((kind) =>
      attackKinds[kind]({ ...prepared, formId: prepared.forms[kind], imageIds }),
    );
    log(`${phase.name}: ${attacks.map((attack) => attack.name).join(', ')} for ${phase.seconds} s`);
    caller.phase = phase.name;
    const phaseStarted = Date.now();
    const cpu = new CpuUse();
    await Promise.all(attacks.map((attack) => attack.run(Date.now() + phase.seconds * 1000)));
    results.push({
      name: phase.name,
      seconds: (Date.now() - phaseStarted) / 1000,
      attacks,
      load: loadavg()[0],
      cpu: cpu.read(),
    });
  }
  caller.phase = 'between';
  await sleep(1_500);
  quietCpu.push(await quiet(quietPhases[1]));
  const samples = await caller.stop();

  const failures = report(samples, results, quietCpu);
  await cleanUp(prepared);
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
  return failures > 0 ? 1 : 0;
}

interface PhaseResult {
  name: string;
  seconds: number;
  attacks: Attack[];
  load: number;
  cpu: { check: number; machine: number; cores: number };
}

// The machine's cores are shared by the region, the check's own attackers
// and anything else running: each phase says how much of them the check
// itself took (its attackers, in cores) and how busy the whole machine was,
// so a slow phase can be told from a machine that had no CPU left to give.
class CpuUse {
  private readonly own = process.cpuUsage();
  private readonly machine = machineTicks();
  private readonly since = process.hrtime.bigint();

  read(): { check: number; machine: number; cores: number } {
    const wallUs = Number(process.hrtime.bigint() - this.since) / 1000;
    const own = process.cpuUsage(this.own);
    const now = machineTicks();
    const busy = now.busy - this.machine.busy;
    const total = busy + now.idle - this.machine.idle;
    return {
      check: (own.user + own.system) / wallUs,
      machine: total > 0 ? busy / total : 0,
      cores: availableParallelism(),
    };
  }
}

// Busy and idle time of all cores so far (Linux's /proc/stat; zero elsewhere).
function machineTicks(): { busy: number; idle: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { busy: fields.reduce((sum, value) => sum + value, 0) - idle, idle };
  } catch {
    return { busy: 0, idle: 0 };
  }
}

function demoCaller(): { token: string; formId: string } {
  const file = path.join(dataDir, 'demo-tokens.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: start the region with \`npm start\` first`);
  const tokens = JSON.parse(readFileSync(file, 'utf8')) as { us?: string };
  if (!tokens.us) throw new Error(`${file} holds no token of region us`);
  return { token: tokens.us, formId: 'demoUS01' };
}

// The attacker's account (by the operators' command), token, public form,
// large images, and a completed response with a progress key.
async function prepareAttacker(): Promise<AttackTarget & { forms: Record<AttackKind, string> }> {
  const name = `hostile-${randomBytes(4).toString('hex')}`;
  const owner = { email: `${name}@example.com`, password: randomBytes(12).toString('base64url') };
  const adminCommand = path.join(root, 'dist/tools/admin/main.js');
  execFileSync(
    process.execPath,
    [
      adminCommand,
      'create-account',
      '--region',
      'us',
      '--email',
      owner.email,
      '--alias',
      name,
      '--password-stdin',
    ],
    {
      input: owner.password,
      env: { ...env, GLOBAL_DATABASE_URL: globalDatabaseUrl },
      stdio: ['pipe', 'ignore', 'inherit'],
    },
  );
  const from = '127.0.0.3';
  const api = async (
    method: string,
    apiPath: string,
    body: unknown,
    authorization: string | undefined,
    expected: number,
  ) => {
    const answer = await sendFrom(base, {
      method,
      path: apiPath,
      from,
      headers: { ...(authorization && { authorization }), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      timeoutMs: 60_000,
    });
    if (answer.status !== expected)
      throw new Error(
        `${method} ${apiPath} answered ${answer.status || answer.error}: ${answer.text.slice(0, 300)}`,
      );
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
  const basic = `Basic ${Buffer.from(`${owner.email}:${owner.password}`).toString('base64')}`;
  const minted = await api(
    'POST',
    '/tokens',
    {
      name: 'outside check',
      scopes: ['forms:read', 'forms:write', 'images:read', 'images:write', 'responses:read'],
    },
    basic,
    201,
  );
  const bearer = `bearer ${String(minted.token)}`;
  const formBody = {
    title: 'Outside check',
    fields: [
      { ref: 'name', title: 'Your name', type: 'short_text' },
      { ref: 'cv', title: 'Your CV', type: 'file_upload' },
    ],
    settings: { is_public: true, autosave_progress: true },
  };
  const form = await api('POST', '/forms', formBody, bearer, 201);
  const forms = { [kindNames[0]]: String(form.id) } as Record<AttackKind, string>;
  for (const kind of kindNames.slice(1))
    forms[kind] = String((await api('POST', '/forms', formBody, bearer, 201)).id);
  const formId = forms.partial;
  const image = (await largeTestImage()).toString('base64');
  const imageIds: string[] = [];
  for (let index = 0; index < imagesPerStampede * 2; index++) {
    const uploaded = await api('POST', '/images', { image, file_name: `large-${index}.jpg` }, bearer, 201);
    imageIds.push(String(uploaded.id));
  }
  const progressKey = randomBytes(16).toString('hex');
  const text = `completed-${randomBytes(6).toString('hex')}`;
  const answers = [{ field: { ref: 'name' }, type: 'text', text }];
  await api(
    'POST',
    `/forms/${formId}/submissions/partial`,
    { progress_key: progressKey, answers },
    undefined,
    200,
  );
  const completed = await api(
    'POST',
    `/forms/${formId}/submissions`,
    { progress_key: progressKey, answers },
    undefined,
    201,
  );
  return {
    base,
    formId,
    forms,
    token: String(minted.token),
    owner,
    imageIds,
    completed: { progressKey, token: String(completed.token), text },
  };
}

async function cleanUp(prepared: AttackTarget): Promise<void> {
  // The images and their sizes go; the account, its form and its uploads stay
  // (unclaimed uploads are pruned after a day, like any respondent's).
  await Promise.all(
    prepared.imageIds.map((id) =>
      sendFrom(base, {
        method: 'DELETE',
        path: `/images/${id}`,
        from: '127.0.0.3',
        headers: { authorization: `bearer ${prepared.token}` },
      }),
    ),
  );
}

interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
  unanswered: number;
  statuses: Map<number, number>;
}

function latencyOf(all: CallSample[], phase: string | string[], kind: CallKind): Latency {
  const phases = typeof phase === 'string' ? [phase] : phase;
  const samples = all.filter((sample) => phases.includes(sample.phase) && sample.kind === kind);
  const answered = samples.filter((sample) => sample.status !== 0).map((sample) => sample.ms);
  const statuses = new Map<number, number>();
  for (const sample of samples) statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
  return {
    count: samples.length,
    p50: percentile(answered, 50),
    p99: percentile(answered, 99),
    max: Math.max(...answered),
    unanswered: samples.length - answered.length,
    statuses,
  };
}

const expectedStatus: Record<CallKind, number> = { read: 200, submit: 201 };

// Prints the table and every failure; returns how many there were.
function report(samples: CallSample[], results: PhaseResult[], quietCpu: Array<PhaseResult['cpu']>): number {
  const kinds: CallKind[] = ['read', 'submit'];
  const latencies = (phase: string | string[]) =>
    Object.fromEntries(kinds.map((kind) => [kind, latencyOf(samples, phase, kind)])) as Record<
      CallKind,
      Latency
    >;
  const baseline = latencies(quietPhases);
  const rows: string[][] = [];
  const failures: string[] = [];
  const cell = (value: number, ratio?: number) =>
    `${value.toFixed(1)}${ratio === undefined ? '' : ` (${ratio.toFixed(1)}x)`}`;
  const normalStatuses = (latency: Record<CallKind, Latency>) =>
    kinds
      .map((kind) =>
        [...latency[kind].statuses].map(([status, count]) => `${status || 'none'}:${count}`).join(' '),
      )
      .join(' / ');

  for (const [name, latency, seconds] of [
    ...quietPhases.map((phase) => [phase, latencies(phase), baselineSeconds] as const),
    ['baseline (both)', baseline, 2 * baselineSeconds] as const,
  ])
    rows.push([
      name,
      String(seconds),
      ...kinds.flatMap((kind) => [cell(latency[kind].p50), cell(latency[kind].p99)]),
      normalStatuses(latency),
      '',
    ]);
  const phaseFailures = new Map<string, string[]>();
  for (const result of results) {
    const latency = Object.fromEntries(
      kinds.map((kind) => [kind, latencyOf(samples, result.name, kind)]),
    ) as Record<CallKind, Latency>;
    const failed: string[] = [];
    for (const kind of kinds) {
      const own = latency[kind];
      const quiet = baseline[kind];
      const wrong = [...own.statuses].filter(([status]) => status !== expectedStatus[kind]);
      if (wrong.length > 0)
        failed.push(
          `normal ${kind}: answered ${wrong.map(([status, count]) => `${status || 'nothing'} ${count}x`).join(', ')}`,
        );
      if (own.p50 > Math.max(bounds.p50Ratio * quiet.p50, bounds.p50FloorMs))
        failed.push(
          `normal ${kind}: p50 ${own.p50.toFixed(1)} ms over ${bounds.p50Ratio}x the baseline's ${quiet.p50.toFixed(1)} ms`,
        );
      if (own.p99 > Math.max(bounds.p99Ratio * quiet.p99, bounds.p99FloorMs))
        failed.push(
          `normal ${kind}: p99 ${own.p99.toFixed(1)} ms over ${bounds.p99Ratio}x the baseline's ${quiet.p99.toFixed(1)} ms`,
        );
    }
    for (const attack of result.attacks)
      for (const tally of attack.tallies) failed.push(...tally.failureLines());
    phaseFailures.set(result.name, failed);
    failures.push(...failed.map((line) => `${result.name}: ${line}`));
    rows.push([
      result.name,
      result.seconds.toFixed(0),
      ...kinds.flatMap((kind) => [
        cell(latency[kind].p50, latency[kind].p50 / baseline[kind].p50),
        cell(latency[kind].p99, latency[kind].p99 / baseline[kind].p99),
      ]),
      normalStatuses(latency),
      failed.length === 0 ? 'ok' : `FAILED (${failed.length})`,
    ]);
  }
  const header = [
    'phase',
    's',
    'read p50 ms',
    'read p99 ms',
    'submit p50 ms',
    'submit p99 ms',
    'normal read / submit statuses',
    'verdict',
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells: string[]) => cells.map((text, column) => text.padEnd(widths[column])).join(' | ');
  const out: string[] = [
    '',
    line(header),
    widths.map((width) => '-'.repeat(width)).join('-|-'),
    ...rows.map(line),
    '',
  ];
  for (const [index, cpu] of quietCpu.entries())
    out.push(
      `${quietPhases[index]}: the check itself ${cpu.check.toFixed(2)} of ${cpu.cores} cores, the machine ${Math.round(cpu.machine * 100)}% busy`,
    );
  for (const result of results) {
    out.push(
      `${result.name} (load average ${result.load.toFixed(1)}; the check itself ${result.cpu.check.toFixed(2)} of ${result.cpu.cores} cores, the machine ${Math.round(result.cpu.machine * 100)}% busy):`,
    );
    for (const attack of result.attacks) {
      for (const tally of attack.tallies) out.push(`  ${tally.caller}: ${tally.summary()}`);
      for (const note of attack.notes) out.push(`  - ${note}`);
    }
  }
  out.push('');
  out.push(
    failures.length === 0
      ? `All phases passed: the normal caller got only 200/201, within ${bounds.p50Ratio}x (p50) and ${bounds.p99Ratio}x (p99) of its baseline or under ${bounds.p50FloorMs}/${bounds.p99FloorMs} ms, and no attacker an answer the gateway does not promise.`
      : `FAILED:\n${failures.map((failure) => `  ${failure}`).join('\n')}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
  return failures.length;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `outside check failed to run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
