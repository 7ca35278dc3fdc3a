import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const distBench = path.resolve(__dirname, '..');

// A bench helper run as its own node process (load generators and baselines
// never share the event loop of what they measure). It prints one JSON
// document on stdout when done; a first line `ready <json>` when it serves.
export class BenchChild {
  /** Children still running: stopped with the bench, even when it is interrupted. */
  static readonly running = new Set<BenchChild>();
  private stdout = '';
  private stderr = '';
  readonly exited: Promise<number | null>;
  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    BenchChild.running.add(this);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        BenchChild.running.delete(this);
        resolve(code);
      }),
    );
  }

  /** `script` is relative to dist/bench, e.g. 'baseline/bare-read.server.js'. */
  static start(script: string, input: unknown, env: Record<string, string> = {}): BenchChild {
    return new BenchChild(
      spawn(process.execPath, [path.join(distBench, script), JSON.stringify(input)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      }),
    );
  }

  static node(args: string[]): BenchChild {
    return new BenchChild(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  // Resolves with the JSON after `ready ` once the child prints it.
  async ready<T>(timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = /^ready (.*)$/m.exec(this.stdout);
      if (match) return JSON.parse(match[1]) as T;
      if (this.child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`bench child not ready: ${this.stderr.slice(-2000)}`);
  }

  // The JSON it printed last, once it has exited.
  async result<T>(): Promise<T> {
    const code = await this.exited;
    const lines = this.stdout.trim().split('\n');
    if (code !== 0) throw new Error(`bench child failed (${code}): ${this.stderr.slice(-2000)}`);
    return JSON.parse(lines[lines.length - 1]) as T;
  }

  stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }
}
