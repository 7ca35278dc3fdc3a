import { execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freeProfilePorts, testInfra } from '@formline/testing';

const root = path.resolve(__dirname, '../..');

// scripts/infra.sh on its own data folder and ports: idempotent `up`, stale
// pid files (dead process, or a pid now used by another program) handled,
// `down` stops everything.
// Its own setup, not the shared fixture's: it starts no apps, and tests the
// script that starts the servers the fixture relies on.
describe('scripts/infra.sh', () => {
  const dataDir = path.join(testInfra().dataDir, 'infra-script');
  let env: NodeJS.ProcessEnv;

  const infra = (command: string) =>
    execFileSync('bash', [path.join(root, 'scripts/infra.sh'), command], {
      env,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  const infraLog = (command: string) => {
    // The script reports on stderr; capture both streams.
    return execFileSync('bash', ['-c', `"${path.join(root, 'scripts/infra.sh')}" ${command} 2>&1`], {
      env,
      encoding: 'utf8',
    });
  };
  const pidOf = (name: string) => Number(readFileSync(path.join(dataDir, `${name}.pid`), 'utf8').trim());

  beforeAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    env = {
      ...process.env,
      FORMLINE_PROFILE: 'test',
      DATA_DIR: dataDir,
      ...(await freeProfilePorts()),
    };
  });

  afterAll(() => {
    infra('down');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts every server, and a second start is a no-op', () => {
    infraLog('up');
    expect(infra('status')).toMatch(/postgres\s+running[\s\S]*nats-us\s+running[\s\S]*redis-eu\s+running/);
    const natsPid = pidOf('nats-us');
    const second = infraLog('up');
    expect(second.match(/already running/g)).toHaveLength(5);
    expect(pidOf('nats-us')).toBe(natsPid);
  });

  it('replaces a stale pid file of a server that died', () => {
    const natsPid = pidOf('nats-us');
    process.kill(natsPid, 'SIGKILL');
    const output = infraLog('up');
    expect(output).toContain('NATS (us) on');
    expect(pidOf('nats-us')).not.toBe(natsPid);
  });

  it('does not trust a pid file whose pid now belongs to another program', () => {
    const redisPid = pidOf('redis-eu');
    process.kill(redisPid, 'SIGKILL');
    writeFileSync(path.join(dataDir, 'redis-eu.pid'), String(process.pid)); // this Jest process
    const output = infraLog('up');
    expect(output).toContain('Redis (eu) on');
    expect(pidOf('redis-eu')).not.toBe(process.pid);
  });

  it('stops everything on down', () => {
    infraLog('down');
    const status = infra('status');
    expect(status).not.toContain('running');
  });

  it('refuses to start on a port another program holds, naming the variable that moves it', async () => {
    const squatter = createServer().listen(Number(env.NATS_PORT_US), '127.0.0.1');
    await once(squatter, 'listening');
    try {
      const result = spawnSync('bash', [path.join(root, 'scripts/infra.sh'), 'up'], {
        env,
        encoding: 'utf8',
      });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain(`port ${env.NATS_PORT_US} for NATS (us) is taken by another process`);
      expect(result.stderr).toContain('NATS_PORT_US');
    } finally {
      squatter.close();
      infra('down');
    }
  });
});
