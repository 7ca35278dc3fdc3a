import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import {
  callApi,
  createTestAccount,
  startTestRegions,
  testGlobalDatabase,
  WebhookReceiver,
} from '@formline/testing';

// The delivery pipeline end to end, open loop: anonymous submissions to a
// form with one enabled webhook, sent at a fixed rate whatever the answers'
// pace, to a real local receiver. For each rate: p50/p99 from accepted (the
// 201 arrived) to received (the receiver got the signed delivery), lost
// (accepted, never received within the grace time) and duplicates.
//
//   bash bench/pipeline-probe.sh [rates=50,200] [seconds=15]
//
// It runs one region (us) of the real apps on the test profile's servers.

interface Figure {
  rate: number;
  seconds: number;
  sent: number;
  accepted: number;
  refused: number;
  /** Refusals by HTTP status (0: no answer). */
  refusals: Record<string, number>;
  received: number;
  lost: number;
  duplicates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const rates = (process.argv[2] ?? '50,200').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 15);
const graceMs = 60_000;

async function main(): Promise<void> {
  const db = testGlobalDatabase();
  const receiver = await WebhookReceiver.start();
  const regions = await startRegion();
  const figures: Figure[] = [];
  try {
    const base = regions.baseUrl('us');
    const account = await createTestAccount(db, 'us');
    for (const rate of rates) {
      const form = await callApi(`${base}/forms`, {
        token: account.token,
        method: 'POST',
        body: { title: `Probe ${rate}/s`, fields: [{ ref: 'n', title: 'N', type: 'number' }] },
      });
      const formId = (form.body as { id: string }).id;
      const hookPath = `/probe-${rate}-${Date.now()}`;
      await callApi(`${base}/forms/${formId}/webhooks/probe`, {
        token: account.token,
        method: 'PUT',
        body: { url: receiver.url(hookPath), enabled: true },
      });
      // Warm up: one delivery through every stage before the clock starts.
      await submit(base, formId, -1);
      await receiver.until(hookPath, (all) => all.length >= 1, 30_000);
      figures.push(await run(base, formId, receiver, hookPath, rate));
      process.stderr.write(`${JSON.stringify(figures.at(-1))}\n`);
    }
  } finally {
    await regions.stop();
    await receiver.stop();
    await db.$disconnect();
  }
  console.table(figures);
  process.stderr.write(
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${cpus().length} cores\n`,
  );
  const dir = path.resolve(__dirname, '../../bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `pipeline-probe-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ name: 'pipeline-probe', cores: cpus().length, loadAverage: loadavg(), figures }, null, 2)}\n`,
  );
  process.stderr.write(`written ${path.relative(process.cwd(), file)}\n`);
}

// On a busy machine an app may take longer than the harness's 30 s to get
// ready: try again rather than give up.
async function startRegion(attempts = 3): Promise<Awaited<ReturnType<typeof startTestRegions>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTestRegions({
        name: 'pipeline-probe',
        regions: ['us'],
        extraEnv: { RATE_LIMIT_REQUESTS: '0', LOG_LEVEL: 'warn' },
      });
    } catch (error) {
      if (attempt >= attempts) throw error;
      process.stderr.write(`starting the region failed (${String(error)}); again\n`);
    }
  }
}

const refusals: Record<string, number> = {};

async function submit(base: string, formId: string, n: number): Promise<string | undefined> {
  try {
    const response = await fetch(`${base}/forms/${formId}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ answers: [{ field: { ref: 'n' }, type: 'number', number: n }] }),
    });
    const body = (await response.json()) as { token?: string };
    if (response.status === 201) return body.token;
    refusals[response.status] = (refusals[response.status] ?? 0) + 1;
    return undefined;
  } catch {
    refusals[0] = (refusals[0] ?? 0) + 1;
    return undefined;
  }
}

async function run(
  base: string,
  formId: string,
  receiver: WebhookReceiver,
  hookPath: string,
  rate: number,
): Promise<Figure> {
  const acceptedAt = new Map<string, number>();
  let refused = 0;
  for (const status of Object.keys(refusals)) delete refusals[status];
  const total = rate * seconds;
  const start = performance.now() + 50;
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(
      submit(base, formId, i).then((token) => {
        if (token) acceptedAt.set(token, Date.now());
        else refused += 1;
      }),
    );
  }
  await Promise.all(sends);
  const deadline = Date.now() + graceMs;
  const tokenOf = (body: string) =>
    (JSON.parse(body) as { form_response: { token: string } }).form_response.token;
  while (Date.now() < deadline) {
    const seen = new Set(receiver.at(hookPath).map((request) => tokenOf(request.body)));
    if ([...acceptedAt.keys()].every((token) => seen.has(token))) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const firstReceipt = new Map<string, number>();
  let copies = 0;
  for (const request of receiver.at(hookPath)) {
    const token = tokenOf(request.body);
    if (!acceptedAt.has(token)) continue;
    copies += 1;
    if (!firstReceipt.has(token)) firstReceipt.set(token, request.receivedAt);
  }
  const latencies = [...firstReceipt]
    .map(([token, at]) => Math.max(0, at - acceptedAt.get(token)!))
    .sort((a, b) => a - b);
  const quantile = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    rate,
    seconds,
    sent: total,
    accepted: acceptedAt.size,
    refused,
    refusals: { ...refusals },
    received: firstReceipt.size,
    lost: acceptedAt.size - firstReceipt.size,
    duplicates: copies - firstReceipt.size,
    p50Ms: quantile(0.5),
    p99Ms: quantile(0.99),
    maxMs: latencies.at(-1) ?? NaN,
  };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`pipeline probe failed: ${String(error)}\n`);
    process.exit(1);
  },
);
