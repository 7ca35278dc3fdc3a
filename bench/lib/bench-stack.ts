import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type AppName, appNames, AppProcess, RegionStack } from '@formline/stack';
import { freePort } from '@formline/testing';

export const root = path.resolve(__dirname, '../../..');

export interface BenchInfra {
  env: Record<string, string>;
  databaseHostUrl: string;
  natsUrl: string;
  redisUrl: string;
  dataDir: string;
}

// NATS, Redis and PostgreSQL for the bench alone: the test profile's scripts
// on ports the kernel hands out and data under .data/bench, so a running
// `npm start` or `npm test` is never touched. Databases are fresh every run,
// unless `keepData` (then only migrated: what an earlier run seeded stays).
// `pgStatements` loads pg_stat_statements (lib/pg-statements.ts).
export async function startInfra(keepData = false, pgStatements = false): Promise<BenchInfra> {
  const dataDir = path.join(root, '.data/bench');
  mkdirSync(dataDir, { recursive: true });
  const ports = {
    PG_PORT: String(await freePort()),
    NATS_PORT_US: String(await freePort()),
    NATS_PORT_EU: String(await freePort()),
    REDIS_PORT_US: String(await freePort()),
    REDIS_PORT_EU: String(await freePort()),
  };
  const env = {
    ...(process.env as Record<string, string>),
    FORMLINE_PROFILE: 'test',
    DATA_DIR: dataDir,
    ...ports,
    ...(pgStatements ? { PG_SERVER_OPTIONS: statementStatisticsOptions } : {}),
  };
  runScript('scripts/infra.sh', ['up'], env);
  runScript('scripts/migrate.sh', keepData ? [] : ['--reset'], env);
  return {
    env,
    dataDir,
    databaseHostUrl: `postgresql://postgres@127.0.0.1:${ports.PG_PORT}`,
    natsUrl: `nats://127.0.0.1:${ports.NATS_PORT_US}`,
    redisUrl: `redis://127.0.0.1:${ports.REDIS_PORT_US}/0`,
  };
}

// Every statement's time, planning included, kept by the server.
const statementStatisticsOptions =
  '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on';

export function stopInfra(infra: BenchInfra): void {
  runScript('scripts/infra.sh', ['down'], infra.env);
}

function runScript(script: string, args: string[], env: Record<string, string>): void {
  const result = spawnSync('bash', [path.join(root, script), ...args], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} failed:\n${result.stderr}`);
}

// Region us's apps, as `npm start` runs them (rate limit off, as for any
// load test), their output in .data/bench/logs/. BENCH_CPU_PROF=<dir> has each
// app write a V8 CPU profile there when it stops (cpu-profile.preload.ts).
export async function startStack(infra: BenchInfra, webhookSecretKey: string): Promise<RegionStack> {
  const logDir = path.join(infra.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logs = new Map<string, NodeJS.WritableStream>();
  const onLine = (label: string, line: string) => {
    let log = logs.get(label);
    if (!log) {
      log = createWriteStream(path.join(logDir, `${label.replace(' ', '-')}.log`), { flags: 'a' });
      logs.set(label, log);
    }
    log.write(`${line}\n`);
  };
  const httpPort = await freePort();
  const opsPorts = {} as Record<AppName, number>;
  for (const app of appNames) opsPorts[app] = await freePort();
  const profileDir = process.env.BENCH_CPU_PROF;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  // BENCH_NODE_OPTIONS reaches the apps' NODE_OPTIONS, e.g. --perf-basic-prof
  // for `perf record`, which sees kernel time the V8 profile cannot.
  const nodeOptions = [
    profileDir ? `--require ${path.join(__dirname, 'cpu-profile.preload.js')}` : '',
    process.env.BENCH_NODE_OPTIONS ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return RegionStack.start(
    {
      region: 'us',
      baseUrls: { us: `http://127.0.0.1:${httpPort}`, eu: `http://127.0.0.1:${await freePort()}` },
      httpHost: '127.0.0.1',
      httpPort,
      mediaPort: await freePort(),
      mediaForwardingKey: randomBytes(32).toString('base64'),
      natsUrl: infra.natsUrl,
      redisUrl: infra.redisUrl,
      globalDatabaseUrl: `${infra.databaseHostUrl}/formline_global`,
      responsesDatabaseUrl: `${infra.databaseHostUrl}/formline_responses_us`,
      webhooksDatabaseUrl: `${infra.databaseHostUrl}/formline_webhooks_us`,
      webhookSecretKey,
      webhookAllowedHosts: '127.0.0.1',
      opsPorts,
      logFormat: 'json',
      extraEnv: {
        // One load generator on one address: every limit off, or the bench
        // would measure the 429s.
        RATE_LIMIT_REQUESTS: '0',
        SUBMISSION_RATE_LIMIT_PER_ADDRESS: '0',
        SUBMISSION_RATE_LIMIT_PER_FORM: '0',
        ...(profileDir ? { BENCH_CPU_PROF: path.resolve(profileDir) } : {}),
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      },
    },
    // A machine shared with other work can take long to start ten processes.
    { distDir: path.join(root, 'dist'), onLine, readyTimeoutMs: 120_000 },
  );
}

// Another dispatcher beside the stack's own, on its own health port.
export async function extraDispatcher(stack: RegionStack, n: number): Promise<AppProcess> {
  const options = stack.app('dispatcher').options;
  const opsPort = await freePort();
  const app = new AppProcess({
    ...options,
    label: `us dispatcher-${n}`,
    opsPort,
    env: { ...options.env, OPS_PORT: String(opsPort) },
  });
  await app.waitReady(120_000);
  return app;
}

// Resident memory of a process, in MB (Linux).
export function rssMb(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

// CPU time a process has used so far (user + system), in ms (Linux; clock
// ticks of 10 ms). CPU per request hardly depends on what else the machine
// runs, unlike requests per second: the figure to compare across runs.
// NaN for a process that is gone: a figure goes missing, the bench goes on.
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

// CPU time the bench's own process (the receiver, its polling) and its
// children that have ended (the load generators, baselines: counted once
// reaped) have used so far, in ms. The stack's apps are still running: not in it.
export function benchCpuMs(): number {
  return statFields(process.pid)
    .slice(11, 15)
    .reduce((sum, ticks) => sum + Number(ticks) * 10, 0);
}

// CPU time the whole machine has spent busy so far, all cores together
// (/proc/stat: user, nice, system, irq, softirq; not steal, the hypervisor's), in ms.
export function machineBusyMs(): number {
  const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(' ')
    .filter((field) => field !== '')
    .map(Number);
  return (user + nice + system + irq + softirq) * 10;
}

// Fields of /proc/<pid>/stat after the command name (which may hold spaces),
// 0-based from `state`.
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

// CPU time the bench's PostgreSQL (every backend, and those that ended:
// the postmaster's children's time), and Redis and NATS of region us have used so far, in ms.
export function infraCpuMs(infra: BenchInfra): { postgres: number; redis: number; nats: number } {
  const pidIn = (file: string) => {
    try {
      return Number(readFileSync(path.join(infra.dataDir, file), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  };
  const postmaster = pidIn('postgres/postmaster.pid');
  let postgres = postmaster === undefined ? Number.NaN : 0;
  for (const entry of postmaster === undefined ? [] : readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(Number(entry));
      if (Number(entry) === postmaster)
        postgres += fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
      else if (Number(fields[1]) === postmaster) postgres += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Ended meanwhile: counted in the postmaster's children's time.
    }
  }
  return { postgres, redis: cpuMs(pidIn('redis-us.pid')), nats: cpuMs(pidIn('nats-us.pid')) };
}
