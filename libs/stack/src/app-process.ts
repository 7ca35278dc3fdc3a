import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AppProcessOptions {
  label: string;
  /** The file the process runs, e.g. dist/apps/gateway/main.js (appEntry). */
  entry: string;
  env: Record<string, string>;
  opsPort: number;
  /** Receives every line the app prints. */
  onLine: (label: string, line: string) => void;
}

// What an app process runs: the app as one file, bundled by the build
// (tools/build/node-app-bundle.mjs), as in the image.
export function appEntry(distDir: string, app: string): string {
  return path.join(distDir, 'apps', app, 'main.js');
}

// How every app's node runs, here, in the image (deploy/image/entrypoint.sh)
// and in each app's `nx serve` target (apps/<app>/project.json):
// `__proto__` access throws, so no caller JSON can reach a prototype through it.
// Memory (measured in the bench, RSS at rest): Prisma's query compiler is
// WebAssembly that V8 otherwise also compiles with TurboFan, about 70 MB per
// app; Liftoff alone is enough, as Prisma caches the plans it compiles. A
// young generation of at most 2 MB per semi-space saves about 20 MB more.
export const appNodeFlags = [
  '--disable-proto=throw',
  '--enable-source-maps',
  '--liftoff-only',
  '--max-semi-space-size=2',
];

// Memory under load: V8 sizes its heap from the memory it sees, and so does
// how far it lets the old generation grow past what is live before a full
// GC (up to 4x with a 4 GB heap, 1.3x at 256 MB). In a pod Node picks half
// the pod's memory limit (256 MB in the 512 Mi pods, 512 MB in media's 1 Gi);
// on a host with no limit (the bench, a container run without one) the
// responses service let its heap reach 134 MB for 31 MB live. The default
// pods' figure is stated, so every host runs as the pods do (docs/node.md);
// the image's entrypoint takes half of its container's own limit when it has
// one, and these figures when it has none.
export function heapLimitFlag(app: string): string {
  return `--max-old-space-size=${app === 'media' ? 512 : 256}`;
}

// The app an entry runs (appEntry: dist/apps/<app>/main.js).
function appOfEntry(entry: string): string {
  return path.basename(path.dirname(entry));
}

// glibc's malloc for every app, here and in the image (set there unless the
// environment sets it): at most 2 arenas, rather than up to 8 per core, each
// keeping what was freed in it (docs/node.md).
export const appMallocEnv: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
};

// One running app: a real `node` process, as in production.
export class AppProcess {
  private readonly child: ChildProcess;
  private readonly exit: Promise<AppExit>;
  /** When it was spawned, when it first printed, when it first answered ready (ms since the epoch). */
  readonly startedAt = Date.now();
  firstLineAt?: number;
  readyAt?: number;

  constructor(readonly options: AppProcessOptions) {
    this.child = spawn(
      process.execPath,
      [...appNodeFlags, heapLimitFlag(appOfEntry(options.entry)), path.resolve(options.entry)],
      {
        env: { PATH: process.env.PATH ?? '', ...appMallocEnv, ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream)
        createInterface({ input: stream }).on('line', (line) => {
          this.firstLineAt ??= Date.now();
          options.onLine(options.label, line);
        });
    }
    this.exit = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  // Resolves when /health/ready answers 200; rejects if the app dies or the time runs out.
  async waitReady(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.hasExited()) throw new Error(`${this.options.label} exited before it was ready`);
      // Only this process's answer counts: when its port was taken by another
      // process meanwhile, that one's 200 must not pass for this app's.
      if ((await readinessStatus(this.options.opsPort, 5000, this.child.pid)) === 200) {
        this.readyAt ??= Date.now();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.options.label} was not ready within ${timeoutMs} ms`);
  }

  // SIGTERM first, as Kubernetes does; SIGKILL if it overstays.
  async stop(graceMs = 10_000): Promise<number | null> {
    if (this.hasExited()) return this.child.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    const { code } = await this.exit;
    clearTimeout(timer);
    return code;
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  async waitExit(): Promise<number | null> {
    return (await this.exit).code;
  }

  /** How the process ended: its exit code, or the signal that ended it. */
  whenExited(): Promise<AppExit> {
    return this.exit;
  }
}

// The app's readiness answer; undefined when there is none within `timeoutMs`
// (an app too busy to answer is not ready, and a caller polling it must not
// hang) and, given `pid`, when another process answered (the ops server names
// itself in X-Process-Id).
export async function readinessStatus(
  opsPort: number,
  timeoutMs = 5000,
  pid?: number,
): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${opsPort}/health/ready`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    if (pid !== undefined && response.headers.get('x-process-id') !== String(pid)) return undefined;
    return response.status;
  } catch {
    return undefined;
  }
}
