import { rmSync } from 'node:fs';
import path from 'node:path';
import { createResponsesDatabase } from '@formline/db';
import { appNames } from '@formline/stack';
import { createTestAccount, testGlobalDatabase } from '../fixtures';
import { freePort } from '../free-port';
import { callApi } from '../http';
import { TestNatsServer } from '../nats-server';
import { TestRedisServer } from '../redis-server';
import { databaseUrl, testInfra } from '../test-infra';
import { startTestRegions } from '../test-regions';
import { WebhookReceiver } from '../webhook-receiver';
import { type MemoryGrowth, memoryGrowth, type MemorySample, sampleMemory } from './app-memory';
import { type AuditFigures, auditDeliveries } from './delivery-audit';
import { appCrash, type Fault, type FaultResult, injectFault, serverCrash, sleep } from './fault-injector';
import { type StreamFigures, SubmissionStream } from './submission-stream';
import { TestPostgres } from './test-postgres';

export interface FaultMatrixOptions {
  /** Names the logs and data folders. */
  name: string;
  ratePerSecond: number;
  /** How long each fault lasts before the process or server comes back. */
  downMs: number;
  /** Quiet time after the region recovered, before the next fault. */
  pauseMs: number;
  /** Run the eight faults once (`rounds: 1`), or in turn until `durationMs` has passed. */
  rounds?: number;
  durationMs?: number;
  /** Progress lines (a fault injected, recovered). */
  log: (line: string) => void;
}

export interface FaultMatrixReport {
  audit: AuditFigures;
  stream: StreamFigures;
  faults: FaultResult[];
  memory: MemoryGrowth[];
  elapsedMs: number;
  /** Whether every client's submission was settled, and every delivery arrived, in time. */
  settled: boolean;
}

// Timeouts a production region would keep longer; shorter here so that the
// whole matrix fits in a few minutes. Each bounds how long a dead process's
// work waits for a successor, not whether it is done.
const quickRecovery = {
  OUTBOX_POLL_INTERVAL_MS: '200',
  DISPATCHER_LOCK_MS: '2000',
  WEBHOOK_EVENT_ACK_WAIT_MS: '3000',
  WEBHOOK_RETRY_SCHEDULE_MS: '500,1000,2000,4000,8000,8000,8000,8000',
};

// The fault matrix of the US region: anonymous submissions stream in to a form
// with an enabled webhook while each of the five apps is killed with SIGKILL
// and relaunched, and PostgreSQL, NATS and Redis are crashed and started again;
// then every accepted submission must be stored once and delivered at least once.
export async function runFaultMatrix(options: FaultMatrixOptions): Promise<FaultMatrixReport> {
  const started = Date.now();
  const infra = testInfra();
  const dataDir = path.join(infra.dataDir, options.name);
  rmSync(dataDir, { recursive: true, force: true });
  const nats = new TestNatsServer(await freePort(), path.join(dataDir, 'nats'));
  const redis = new TestRedisServer(await freePort(), path.join(dataDir, 'redis'));
  const postgres = new TestPostgres(infra.dataDir);
  const globalDb = testGlobalDatabase();
  // The matrix's own reads wait for a connection as long as they need: on a
  // busy machine a service's 2 s would fail the whole run at its last step.
  const responsesDb = createResponsesDatabase(databaseUrl(infra, 'formline_responses_us'), {
    acquireTimeoutMs: 60_000,
  });
  const receiver = await WebhookReceiver.start();
  await nats.start();
  await redis.start();
  const cleanup: (() => Promise<unknown>)[] = [
    // Whatever happened, the shared PostgreSQL runs again for the tests after.
    () => postgres.start(),
    () => nats.stop(),
    () => redis.stop(),
    () => receiver.stop(),
    () => globalDb.$disconnect(),
    () => responsesDb.$disconnect(),
  ];
  try {
    const account = await createTestAccount(globalDb, 'us');
    const regions = await startTestRegions({
      name: options.name,
      regions: ['us'],
      natsUrl: { us: nats.url },
      redisUrl: { us: redis.url },
      extraEnv: quickRecovery,
    });
    cleanup.unshift(() => regions.stop());
    const stack = regions.stacks.us!;
    const base = regions.baseUrl('us');
    const form = await callApi(`${base}/forms`, {
      token: account.token,
      method: 'POST',
      body: { title: 'Fault matrix', fields: [{ ref: 'n', title: 'N', type: 'number' }] },
    });
    const formId = form.body.id as string;
    const hook = await callApi(`${base}/forms/${formId}/webhooks/matrix`, {
      token: account.token,
      method: 'PUT',
      body: { url: receiver.url('/matrix'), enabled: true },
    });
    if (hook.status !== 200) throw new Error(`webhook not created: ${hook.status} ${hook.text}`);

    const faults: Fault[] = [
      ...appNames.map((app) => appCrash(stack, app)),
      serverCrash('PostgreSQL restart (pg_ctl stop -m fast, then start)', postgres, [
        'global',
        'responses',
        'webhooks',
        'dispatcher',
      ]),
      serverCrash('NATS kill -9 and start', nats, ['gateway', 'global', 'responses', 'webhooks']),
      serverCrash('Redis kill -9 and start (append-only file kept)', redis, ['webhooks', 'dispatcher']),
    ];

    const stream = new SubmissionStream({
      url: `${base}/forms/${formId}/submissions`,
      ratePerSecond: options.ratePerSecond,
      body: (n) => ({ answers: [{ field: { ref: 'n' }, type: 'number', number: n }] }),
    });
    const memory: MemorySample[] = [];
    const sampler = setInterval(() => memory.push(...sampleMemory(stack)), 5000);
    cleanup.unshift(() => Promise.resolve(clearInterval(sampler)));
    stream.start();
    await sleep(options.pauseMs);
    memory.push(...sampleMemory(stack));

    const results: FaultResult[] = [];
    const rounds = options.rounds ?? Number.POSITIVE_INFINITY;
    const deadline =
      options.durationMs === undefined ? Number.POSITIVE_INFINITY : started + options.durationMs;
    for (let round = 0; round < rounds && Date.now() < deadline; round++) {
      for (const fault of faults) {
        if (Date.now() >= deadline) break;
        options.log(`fault: ${fault.name}`);
        const result = await injectFault(stack, fault, options.downMs);
        results.push(result);
        options.log(
          `  recovered ${result.recoveredMs === undefined ? `NOT within 180 s (still not ready: ${result.stillNotReady.join(', ')})` : `in ${result.recoveredMs} ms`}` +
            (result.notReady.length ? `; not ready meanwhile: ${result.notReady.join(', ')}` : ''),
        );
        await sleep(options.pauseMs);
      }
    }

    const clientsSettled = await stream.settle(60_000);
    // Clients still retrying give up now, so that nothing is accepted while
    // the deliveries are awaited and audited: a submission accepted after
    // the wait would count as lost (a soak once counted 1,781 such).
    stream.stop();
    const accepted = new Set(stream.accepted.values());
    const deliveredAll = await receiver
      .until(
        '/matrix',
        (requests) => new Set(requests.map((request) => tokenOf(request.body))).size >= accepted.size,
        90_000,
      )
      .then(
        () => true,
        () => false,
      );
    memory.push(...sampleMemory(stack));
    const stored = await responsesDb.response.findMany({
      where: { formId },
      select: { id: true, idempotencyKey: true },
    });
    const audit = auditDeliveries({
      accepted: stream.accepted,
      stored: stored.map((row) => ({ token: row.id, idempotencyKey: row.idempotencyKey })),
      deliveries: receiver.at('/matrix').map((request) => tokenOf(request.body)),
    });
    return {
      audit,
      stream: stream.figures(),
      faults: results,
      memory: memoryGrowth(memory),
      elapsedMs: Date.now() - started,
      settled: clientsSettled && deliveredAll,
    };
  } finally {
    for (const step of cleanup) await step().catch(() => undefined);
  }
}

function tokenOf(body: string): string {
  return (JSON.parse(body) as { form_response: { token: string } }).form_response.token;
}

// The figures as the test and the soak print them.
export function formatFaultMatrixReport(report: FaultMatrixReport): string {
  const { audit, stream } = report;
  const mb = (bytes?: number) => (bytes === undefined ? '-' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
  const lines = [
    `accepted ${audit.accepted}, stored ${audit.stored} (twice: ${audit.storedTwice}), delivered ${audit.delivered}, ` +
      `duplicates ${audit.duplicates} (${audit.duplicateRatePercent}%), lost ${audit.lost}`,
    `clients: ${stream.sent} submissions, ${stream.attempts} attempts, answers ${JSON.stringify(stream.answers)}, ` +
      `refused ${stream.refused}, still retrying ${stream.pending}, 503 without Retry-After ${stream.unavailableWithoutRetryAfter}`,
    ...report.faults.map(
      (fault) =>
        `  ${fault.name}: down ${fault.downMs} ms, recovered ${fault.recoveredMs === undefined ? `NOT (still not ready: ${fault.stillNotReady.join(' ')})` : `in ${fault.recoveredMs} ms`}` +
        (fault.notReady.length ? `, not ready meanwhile: ${fault.notReady.join(' ')}` : ''),
    ),
    'memory (RSS) per app: start -> end; growth of its longest-lived process',
    ...report.memory.map(
      (row) =>
        `  ${row.app.padEnd(10)} ${mb(row.startRssBytes)} -> ${mb(row.endRssBytes)}; ` +
        `${row.longestLivedGrowthBytes >= 0 ? '+' : ''}${mb(row.longestLivedGrowthBytes)} over ${Math.round(row.longestLivedMs / 1000)} s`,
    ),
    `elapsed ${Math.round(report.elapsedMs / 1000)} s`,
  ];
  return lines.join('\n');
}
