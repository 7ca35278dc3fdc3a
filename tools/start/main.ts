import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Region } from '@formline/contracts';
import { createGlobalDatabase } from '@formline/db';
import {
  type AppName,
  appNames,
  defaultRestartPolicy,
  RegionStack,
  type RegionStackSettings,
} from '@formline/stack';
import { appConfigSchemas } from '@formline/app-config';
import { seedDemo } from '../seed/demo-seed';
import { portClashes } from './port-clashes';

// `npm start`, after scripts/start.sh has installed, built, started the
// infrastructure and migrated: seed the demo accounts, start both regional
// stacks, print how to call them, keep every app running (an app that exits
// is restarted with backoff), and stop everything on Ctrl-C.

const env = process.env;
const root = path.resolve(__dirname, '../../..');
const dataDir = env.DATA_DIR ?? path.join(root, '.data/dev');
// Made once and kept with the local data: the secrets it seals must stay readable.
const webhookSecretKey =
  env.WEBHOOK_SECRET_KEY ?? localWebhookSecretKey(path.join(dataDir, 'webhook-secret.key'));
const databaseHost = env.DATABASE_HOST_URL ?? 'postgresql://postgres@127.0.0.1:15432';
const httpPorts: Record<Region, number> = {
  us: Number(env.US_HTTP_PORT ?? 3000),
  eu: Number(env.EU_HTTP_PORT ?? 3001),
};
const baseUrls = {
  us: env.BASE_URL ?? `http://127.0.0.1:${httpPorts.us}`,
  eu: env.EU_BASE_URL ?? `http://127.0.0.1:${httpPorts.eu}`,
};
// The media apps listen inside this machine only; the gateways forward to them.
const mediaPorts: Record<Region, number> = {
  us: Number(env.US_MEDIA_PORT ?? 3050),
  eu: Number(env.EU_MEDIA_PORT ?? 3051),
};
// The gateway signs what it forwards to its region's media app: a key a
// region, new each start (nothing is kept that it signed).
const mediaForwardingKeys: Record<Region, string> = {
  us: env.MEDIA_FORWARDING_KEY ?? randomBytes(32).toString('base64'),
  eu: env.MEDIA_FORWARDING_KEY ?? randomBytes(32).toString('base64'),
};
const opsPortBase: Record<Region, number> = {
  us: Number(env.US_OPS_PORT_BASE ?? 3100),
  eu: Number(env.EU_OPS_PORT_BASE ?? 3200),
};

function settingsFor(
  region: Region,
  natsPort: string,
  redisPort: string,
  demoFormId: string,
): RegionStackSettings {
  const opsPorts = Object.fromEntries(appNames.map((app, i) => [app, opsPortBase[region] + i])) as Record<
    AppName,
    number
  >;
  return {
    region,
    baseUrls,
    httpHost: '127.0.0.1',
    httpPort: httpPorts[region],
    mediaPort: mediaPorts[region],
    mediaForwardingKey: mediaForwardingKeys[region],
    natsUrl: `nats://127.0.0.1:${natsPort}`,
    redisUrl: `redis://127.0.0.1:${redisPort}/0`,
    globalDatabaseUrl: `${databaseHost}/formline_global`,
    responsesDatabaseUrl: `${databaseHost}/formline_responses_${region}`,
    webhooksDatabaseUrl: `${databaseHost}/formline_webhooks_${region}`,
    webhookSecretKey,
    // The local demo may send webhooks to a receiver on this machine.
    webhookAllowedHosts: env.WEBHOOK_ALLOWED_HOSTS ?? '127.0.0.1,localhost',
    opsPorts,
    logFormat: 'pretty',
    // The base address's home page links the region's demo form.
    extraEnv: { DEMO_FORM_ID: demoFormId, ...passedOnVariables() },
  };
}

// What the launcher sets itself, per region or from its own variables above;
// every other documented variable set in this environment reaches the apps
// (docs/configuration.md), e.g. `RATE_LIMIT_REQUESTS=0 npm start` for a load test.
const launcherVariables = new Set([
  'REGION',
  'BASE_URL',
  'EU_BASE_URL',
  'NATS_URL',
  'REDIS_URL',
  'HTTP_HOST',
  'HTTP_PORT',
  'MEDIA_URL',
  'MEDIA_FORWARDING_KEY',
  'OPS_PORT',
  'GLOBAL_DATABASE_URL',
  'RESPONSES_DATABASE_URL',
  'WEBHOOKS_DATABASE_URL',
  'WEBHOOK_SECRET_KEY',
  'WEBHOOK_ALLOWED_HOSTS',
]);

function passedOnVariables(): Record<string, string> {
  const documented = new Set(Object.values(appConfigSchemas).flatMap((schema) => Object.keys(schema.shape)));
  return Object.fromEntries(
    [...documented]
      .filter((name) => !launcherVariables.has(name) && env[name] !== undefined)
      .map((name) => [name, env[name]!]),
  );
}

function printLine(label: string, line: string): void {
  process.stdout.write(`[${label.padEnd(13)}] ${line}\n`);
}

async function main(): Promise<void> {
  const clashes = portClashes([settingsFor('us', '', '', ''), settingsFor('eu', '', '', '')]);
  if (clashes.length > 0) {
    throw new Error(
      `two listeners on one port (set US_OPS_PORT_BASE and EU_OPS_PORT_BASE at least ${appNames.length} apart):\n  ${clashes.join('\n  ')}`,
    );
  }
  const db = createGlobalDatabase(`${databaseHost}/formline_global`);
  const demo = await seedDemo(db, path.join(dataDir, 'demo-tokens.json'));
  await db.$disconnect();
  const demoFormOf = (region: Region) => demo.find((account) => account.region === region)?.formId ?? '';

  const stacks: RegionStack[] = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nstopping both regions...\n');
    await Promise.all(stacks.map((stack) => stack.stop()));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  // An app that exits is started again, as Kubernetes would (printed with its reason).
  // A first start on a busy machine may be slow: wait for it rather than give up.
  const options = {
    distDir: path.join(root, 'dist'),
    onLine: printLine,
    supervise: defaultRestartPolicy,
    readyTimeoutMs: 120_000,
  };
  stacks.push(
    ...(await Promise.all([
      RegionStack.start(
        settingsFor('us', env.NATS_PORT_US ?? '14222', env.REDIS_PORT_US ?? '16379', demoFormOf('us')),
        options,
      ),
      RegionStack.start(
        settingsFor('eu', env.NATS_PORT_EU ?? '14223', env.REDIS_PORT_EU ?? '16380', demoFormOf('eu')),
        options,
      ),
    ])),
  );

  const lines = [
    '',
    'Both regions are up.',
    `  {base_url}     ${baseUrls.us}   (region us)`,
    `  {eu_base_url}  ${baseUrls.eu}   (region eu)`,
    `  API document   ${baseUrls.us}/docs   (OpenAPI: /openapi.json)`,
    // The owner's console, on each address; it signs in with a demo account below.
    `  Console        ${baseUrls.us}/console   ${baseUrls.eu}/console`,
    // Which Node.js the apps run on: the machine's own or the pinned one (docs/node.md).
    `  Node.js        ${process.version}   (${process.execPath})`,
    '',
    ...demo.flatMap((account) => [
      `Demo account ${account.accountId} (region ${account.region}), form ${account.formId}:`,
      `  token: ${account.token}`,
      `  curl -H "Authorization: bearer ${account.token}" ${baseUrls.us}/forms/${account.formId}`,
      `  answer it in a browser: ${baseUrls.us}/to/${account.formId}`,
      `  sign in to the console: ${account.email} / ${account.password}`,
    ]),
    '',
    'Press Ctrl-C to stop everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `npm start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});

function localWebhookSecretKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
