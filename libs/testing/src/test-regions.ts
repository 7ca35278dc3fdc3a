import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import type { Region } from '@formline/contracts';
import { type AppName, appNames, RegionStack, type RegionStackSettings } from '@formline/stack';
import { freePort } from './free-port';
import { StartupComplaints } from './nest-startup-complaints';
import { repositoryRoot } from './repository-root';
import { databaseUrl, testInfra } from './test-infra';

const root = repositoryRoot();

// A fixed key: test databases are fresh every run, and tests may restart an app.
export const testWebhookSecretKey = Buffer.alloc(32, 7).toString('base64');
// The gateway's and media's key: a test that calls media directly signs with it.
export const testMediaForwardingKey = Buffer.alloc(32, 9).toString('base64');

export interface TestRegionsOptions {
  /** Names the log folder: .data/test/logs/<name>/. */
  name: string;
  regions?: readonly Region[];
  apps?: readonly AppName[];
  /** Replace a region's NATS (e.g. a private server a test stops and starts). */
  natsUrl?: Partial<Record<Region, string>>;
  /** Replace a region's Redis, likewise. */
  redisUrl?: Partial<Record<Region, string>>;
  /** Reach PostgreSQL elsewhere (e.g. through a proxy a test cuts), `postgresql://user@host:port`. */
  databaseHostUrl?: string;
  extraEnv?: Record<string, string>;
  /** Variables of one region only (e.g. its own file bucket), after extraEnv. */
  regionEnv?: Partial<Record<Region, Record<string, string>>>;
  /** How long each app may take to be ready (RegionStack's 30 s by default). */
  readyTimeoutMs?: number;
}

export interface TestRegions {
  stacks: Partial<Record<Region, RegionStack>>;
  baseUrl(region: Region): string;
  /** Where an app's output goes: .data/test/logs/<name>/<region>-<app>.log. */
  logFile(region: Region, app: AppName): string;
  stop(): Promise<void>;
  /**
   * Throws if Nest logged a warning or an error while the apps started
   * (nest-startup-complaints.ts). Starting checks the lines that have come
   * by then; called after stop(), this checks them all.
   */
  assertQuietStart(): void;
}

// Starts the real apps of the requested regions as processes on free ports,
// against the test infrastructure, with each app's output in its own log file.
export async function startTestRegions(options: TestRegionsOptions): Promise<TestRegions> {
  const infra = testInfra();
  const databaseHost = { ...infra, databaseHostUrl: options.databaseHostUrl ?? infra.databaseHostUrl };
  const regions = options.regions ?? (['us', 'eu'] as const);
  const httpPorts = { us: await freePort(), eu: await freePort() };
  const baseUrls = { us: `http://127.0.0.1:${httpPorts.us}`, eu: `http://127.0.0.1:${httpPorts.eu}` };
  const logDir = path.join(infra.dataDir, 'logs', options.name);
  mkdirSync(logDir, { recursive: true });
  const logs = new Map<string, WriteStream>();
  const complaints = new StartupComplaints();
  const onLine = (label: string, line: string) => {
    complaints.note(label, line);
    let log = logs.get(label);
    if (!log) {
      log = createWriteStream(path.join(logDir, `${label.replace(' ', '-')}.log`), { flags: 'a' });
      logs.set(label, log);
    }
    log.write(`${line}\n`);
  };

  const stacks: Partial<Record<Region, RegionStack>> = {};
  const settingsFor = async (region: Region): Promise<RegionStackSettings> => {
    const opsPorts = {} as Record<AppName, number>;
    for (const app of appNames) opsPorts[app] = await freePort();
    return {
      region,
      baseUrls,
      httpHost: '127.0.0.1',
      httpPort: httpPorts[region],
      mediaPort: await freePort(),
      mediaForwardingKey: testMediaForwardingKey,
      natsUrl: options.natsUrl?.[region] ?? infra.natsUrl[region],
      redisUrl: options.redisUrl?.[region] ?? infra.redisUrl[region],
      globalDatabaseUrl: databaseUrl(databaseHost, 'formline_global'),
      responsesDatabaseUrl: databaseUrl(databaseHost, `formline_responses_${region}`),
      webhooksDatabaseUrl: databaseUrl(databaseHost, `formline_webhooks_${region}`),
      webhookSecretKey: testWebhookSecretKey,
      webhookAllowedHosts: '127.0.0.1',
      opsPorts,
      logFormat: 'json',
      // Every test submits from 127.0.0.1, far more than one person would:
      // the anonymous-submission limits are tested where they are set lower.
      extraEnv: {
        NATS_RECONNECT_WAIT_MS: '200',
        // Submission events leave the outbox within a fifth of a second, not
        // a second: tests wait for their deliveries.
        OUTBOX_POLL_INTERVAL_MS: '200',
        SUBMISSION_RATE_LIMIT_PER_ADDRESS: '100000',
        SUBMISSION_RATE_LIMIT_PER_FORM: '100000',
        // Tests send made-up and revoked tokens from 127.0.0.1 on purpose;
        // the limit on failed authentications is tested where it is set lower.
        AUTH_FAILURE_RATE_LIMIT_PER_ADDRESS: '100000',
        // The test machine is shared and at times starved of CPU, which a
        // gateway would rightly shed load for: tests that do not retry would
        // fail. Shedding is tested where it is set (readiness, load-shedding).
        GATEWAY_MAX_EVENT_LOOP_DELAY_MS: '0',
        ...options.extraEnv,
        ...options.regionEnv?.[region],
      },
    };
  };
  const distDir = path.join(root, 'dist');
  // Both regions at once: their apps start in parallel, and a spec waits for
  // the slowest app rather than for the sum of the regions.
  const started = await Promise.allSettled(
    regions.map(async (region) => {
      stacks[region] = await RegionStack.start(await settingsFor(region), {
        distDir,
        onLine,
        apps: options.apps,
        // A shared, busy machine may take long to start node processes.
        readyTimeoutMs: options.readyTimeoutMs ?? 90_000,
      });
    }),
  );
  const stopAll = async () => {
    await Promise.all(Object.values(stacks).map((stack) => stack.stop()));
    for (const log of logs.values()) log.end();
  };
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stopAll();
    const error: unknown = failed.reason;
    throw new Error(`${String(error)} (logs in ${logDir})`, { cause: error });
  }
  // The apps started, but Nest said something was not applied as declared:
  // the spec fails here rather than test an app that is not what it seems.
  complaints.started();
  const assertQuietStart = () => {
    const fromNest = complaints.list();
    if (fromNest.length > 0)
      throw new Error(
        `Nest warned while the apps started (logs in ${logDir}):\n${fromNest.map((line) => `  ${line}`).join('\n')}`,
      );
  };
  try {
    assertQuietStart();
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    stacks,
    baseUrl: (region) => baseUrls[region],
    logFile: (region, app) => path.join(logDir, `${region}-${app}.log`),
    stop: stopAll,
    assertQuietStart,
  };
}
