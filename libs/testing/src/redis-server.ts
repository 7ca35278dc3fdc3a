import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { killServer, waitForPort } from './nats-server';

// A private Redis for a test that stops and restarts it, so the shared test
// servers stay untouched. In memory only, a restart comes back empty; with a
// data folder, it keeps an append-only file as scripts/infra.sh's Redis does,
// and a restart comes back with every acknowledged write. With `tls`, it
// speaks only TLS on its port (`rediss://`); `args` adds server flags (e.g.
// `--requirepass`).
export class TestRedisServer {
  private child?: ChildProcess;

  constructor(
    readonly port: number,
    private readonly dataDir?: string,
    private readonly options: { args?: readonly string[]; tls?: { certFile: string; keyFile: string } } = {},
  ) {}

  get url(): string {
    return `${this.options.tls ? 'rediss' : 'redis'}://127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    if (this.dataDir) mkdirSync(this.dataDir, { recursive: true });
    const persistence = this.dataDir
      ? ['--appendonly', 'yes', '--dir', this.dataDir, '--maxmemory-policy', 'noeviction']
      : ['--appendonly', 'no'];
    const { tls, args = [] } = this.options;
    const listen = tls
      ? ['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', tls.certFile]
      : ['--port', String(this.port)];
    const clients = tls ? ['--tls-key-file', tls.keyFile, '--tls-auth-clients', 'no'] : [];
    this.child = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', ...listen, ...clients, '--save', '', ...persistence, ...args],
      { stdio: 'ignore' },
    );
    await waitForPort(this.port);
  }

  /** kill -9, as a crash would. */
  async kill(): Promise<void> {
    await this.stop();
  }

  async stop(): Promise<void> {
    await killServer(this.child);
  }
}
