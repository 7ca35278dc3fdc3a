import { type ChildProcess, spawn } from 'node:child_process';
import { waitForPort } from './nats-server';

// A private Redis for a test that stops and restarts it, so the shared test
// servers stay untouched. In memory only: a restart comes back empty.
export class TestRedisServer {
  private child?: ChildProcess;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(this.port), '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitForPort(this.port);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
