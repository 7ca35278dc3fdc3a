import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';

// A private NATS server for a test that stops and restarts it, so the shared
// test servers stay untouched.
export class TestNatsServer {
  private child?: ChildProcess;

  constructor(
    readonly port: number,
    private readonly dataDir: string,
    /** More server flags, e.g. `--user`, `--pass` to require credentials. */
    private readonly extraArgs: readonly string[] = [],
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    mkdirSync(this.dataDir, { recursive: true });
    this.child = spawn(
      'nats-server',
      ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', path.join(this.dataDir), ...this.extraArgs],
      {
        stdio: 'ignore',
      },
    );
    await waitForPort(this.port);
  }

  /** kill -9, as a crash would (stop() does the same). */
  async kill(): Promise<void> {
    await this.stop();
  }

  /** SIGSTOP: the server keeps its connections but answers nothing, as a hung one would. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  /** SIGCONT after freeze(). */
  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    await killServer(this.child);
  }
}

// kill -9 a private server, as a crash would, once it is gone.
export async function killServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}
