import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createGlobalDatabase } from '@formline/db';
import { demoFormDefinition } from '../tools/seed/demo-form';
import { seedDemo } from '../tools/seed/demo-seed';
import { BenchChild } from './lib/child';
import { cpuMs, root, rssMb, startInfra, startStack, stopInfra } from './lib/bench-stack';
import { figure, printTable, writeResults } from './lib/figures';
import { BenchReceiver } from './lib/receiver';
import { newestRecordedRun, printRegressions } from './lib/regressions';
import { round } from './lib/stats';
import { dataScale } from './scale/data-scale';
import {
  api,
  apps,
  below,
  type Context,
  progress,
  roundAll,
  settings,
  sleep,
  webhookSecret,
  benchStarted,
} from './lib/bench-run';
import { readPath } from './stages/read-path.stage';
import { intake } from './stages/intake.stage';
import { deliveryLatency } from './stages/delivery-latency.stage';
import { dispatcherThroughput } from './stages/dispatcher-throughput.stage';
import { pipeline } from './stages/pipeline.stage';
import { consoleFirstScreen } from './stages/console-first-screen.stage';

// `npm run bench`: each figure against a baseline doing the same work,
// measured in the same run, in interleaved rounds (medians), on its own
// infrastructure and ports; prints a table and writes bench/results/<time>.json.
// Its settings are read in lib/bench-run.ts; each stage is a file of stages/.
async function main(): Promise<void> {
  const cleanup: Array<() => Promise<void> | void> = [];
  const stopAll = async () => {
    await Promise.all([...BenchChild.running].map((child) => child.stop()));
    for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => undefined);
    cleanup.length = 0;
  };
  process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    progress('starting NATS, Redis and PostgreSQL on free ports (.data/bench)...');
    const infra = await startInfra(settings.keepData, settings.pgStatements);
    cleanup.push(() => stopInfra(infra));
    const db = createGlobalDatabase(`${infra.databaseHostUrl}/formline_global`);
    const [demo] = await seedDemo(db, path.join(infra.dataDir, 'demo-tokens.json'));
    await db.$disconnect();
    progress(`starting region us (its ${apps.length} apps, rate limits off)...`);
    const stack = await startStack(infra, randomBytes(32).toString('base64'));
    cleanup.push(() => stack.stop());
    const receiver = new BenchReceiver(webhookSecret);
    await receiver.start();
    cleanup.push(() => receiver.stop());
    const deliveryFormId = await setUpDeliveryForm(stack.baseUrl, demo.token, receiver);
    const context: Context = {
      infra,
      stack,
      receiver,
      token: demo.token,
      readFormId: demo.formId,
      deliveryFormId,
      figures: [],
    };
    // What each app took to start: from its spawn to its first ready answer,
    // and its CPU by then and in the 3 s after (its start's own work: the
    // apps start together, so the wall time also counts the others').
    const startMs = Object.fromEntries(
      apps.map((app) => [app, (stack.app(app).readyAt ?? Number.NaN) - stack.app(app).startedAt]),
    );
    await sleep(3000);
    const startCpuMs = Object.fromEntries(apps.map((app) => [app, cpuMs(stack.app(app).pid)]));
    const atRest = Object.fromEntries(apps.map((app) => [app, rssMb(stack.app(app).pid)]));
    progress(`start (ms to ready): ${JSON.stringify(roundAll(startMs))}`);
    progress(`start (ms of CPU): ${JSON.stringify(roundAll(startCpuMs))}`);
    progress(`memory at rest (MB): ${JSON.stringify(roundAll(atRest))}`);

    if (settings.only.includes('read')) await readPath(context);
    if (settings.only.includes('intake')) await intake(context);
    if (settings.only.includes('delivery')) await deliveryLatency(context);
    if (settings.only.includes('dispatcher')) await dispatcherThroughput(context);
    // Last of the default stages: its failing step leaves the machine busiest.
    if (settings.only.includes('pipeline')) await pipeline(context);
    if (settings.only.includes('console')) await consoleFirstScreen(context);
    if (settings.only.includes('data-scale')) {
      await dataScale(
        { infra, stack, figures: context.figures, progress },
        { ...settings.scale, keepData: settings.keepData },
      );
    }

    for (const app of apps) {
      context.figures.push(figure(`start, CPU: ${app}`, 'ms', [startCpuMs[app]], undefined, null));
      context.figures.push(figure(`start, to ready: ${app}`, 'ms', [startMs[app]], undefined, null));
      context.figures.push(figure(`memory at rest: ${app}`, 'MB', [atRest[app]], undefined, below(150)));
    }
    for (const app of apps) {
      const after = rssMb(stack.app(app).pid);
      context.figures.push(figure(`memory after load: ${app}`, 'MB', [after], undefined, below(250)));
    }
    printTable(context.figures);
    const resultsDir = path.join(root, 'bench/results');
    printRegressions(context.figures, newestRecordedRun(resultsDir));
    const file = writeResults(resultsDir, context.figures, settings);
    progress(
      `wrote ${path.relative(root, file)}; took ${Math.round((Date.now() - benchStarted) / 1000)} s (load average ${loadavg()
        .map((v) => round(v, 1))
        .join(', ')})`,
    );
  } finally {
    progress('stopping everything the bench started...');
    await stopAll();
  }
}

// A second form like the demo one, with a signed webhook to the bench's receiver.
async function setUpDeliveryForm(baseUrl: string, token: string, receiver: BenchReceiver): Promise<string> {
  const created = await api(baseUrl, token, 'POST', '/forms', demoFormDefinition('Bench deliveries'));
  const formId = (created.json as { id: string }).id;
  await api(baseUrl, token, 'PUT', `/forms/${formId}/webhooks/bench`, {
    url: receiver.url('/hook'),
    enabled: true,
    secret: webhookSecret,
  });
  return formId;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
