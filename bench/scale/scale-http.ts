import type { AppName, RegionStack } from '@formline/stack';
import type { Client } from 'pg';
import { apps } from '../lib/bench-run';
import { rssMb } from '../lib/bench-stack';
import { round } from '../lib/stats';

// How the data-scale stage calls the API and reads the database: timed
// calls (asked again when the gateway shed them), the wait for an idle
// database, and the apps' peak memory.

export interface Sample {
  ms: number;
  status: number;
  /** Times the gateway shed the call before taking it (not timed). */
  shed: number;
}
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const sampleMs = (samples: Sample[]) => samples.map((s) => s.ms);

export async function timedRequest(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Sample> {
  for (let shed = 0; ; shed++) {
    const started = performance.now();
    const response = await send(baseUrl, token, method, path, body);
    const text = await response.text();
    const ms = performance.now() - started;
    if (!isShed(response.status, text) || shed >= maxShed) return { ms, status: response.status, shed };
    await sleep(1000);
  }
}

// The gateway refuses a request at once (503, Retry-After: 1) while its event
// loop runs late: on a machine shared with other work that is the machine's
// load, not the call's cost. Such a call is asked again after a second, not
// timed; an RPC that outlived its deadline (503 after seconds) is timed.
export const maxShed = 30;
export function isShed(status: number, text: string): boolean {
  return status === 503 && /short of CPU|as many requests as it can/.test(text);
}

export function send(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

// A call the gateway gave up on leaves its query running in PostgreSQL, and
// that work would slow the calls after it: each kind of call, and each call
// after a failed one, starts once the responses database runs nothing else.
export async function idle(sql: Client): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (rows[0].n === 0) return;
    await sleep(200);
  }
}

export async function timedQuery(sql: Client, query: { text: string; values: unknown[] }): Promise<number> {
  const started = performance.now();
  await sql.query(query);
  return performance.now() - started;
}

export async function api(
  baseUrl: string,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  for (let shed = 0; ; shed++) {
    const response = await send(baseUrl, token, method, path, body);
    const text = await response.text();
    if (isShed(response.status, text) && shed < maxShed) {
      await sleep(1000);
      continue;
    }
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return {
      text,
      json:
        text && /json/.test(response.headers.get('content-type') ?? '')
          ? (JSON.parse(text) as unknown)
          : null,
    };
  }
}

// The apps' resident memory, sampled every 200 ms while the calls run: the peak of each.
export class PeakMemory {
  readonly peak = Object.fromEntries(apps.map((app) => [app, 0])) as Record<AppName, number>;
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly stack: RegionStack) {}

  start(): void {
    this.timer = setInterval(() => {
      for (const app of apps) {
        try {
          const mb = rssMb(this.stack.app(app).pid);
          if (mb > this.peak[app]) this.peak[app] = mb;
        } catch {
          // An app that stopped has no memory to read: its peak so far stands.
        }
      }
    }, 200);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  rounded(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.peak).map(([app, mb]) => [app, round(mb)]));
  }
}
