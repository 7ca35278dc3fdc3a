import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../repository-root';

const run = promisify(execFile);

// The test profile's PostgreSQL server (scripts/infra.sh), for tests that
// restart it: `kill` is `pg_ctl stop -m fast` (every session is cut at once,
// in-flight transactions roll back), `start` is scripts/infra.sh up, as an
// operator would. Not `-m immediate` (a crash): the test profile runs with
// synchronous_commit=off for speed, so a crash there drops the last commits
// that clients were already told about, which production's settings never do.
export class TestPostgres {
  constructor(private readonly dataDir: string) {}

  async kill(): Promise<void> {
    await run(
      ...asPostgresUser(pgCtl(), ['-D', path.join(this.dataDir, 'postgres'), '-m', 'fast', '-w', 'stop']),
    );
  }

  async start(): Promise<void> {
    await run('bash', [path.join(repositoryRoot(), 'scripts/infra.sh'), 'up'], {
      env: { ...process.env, FORMLINE_PROFILE: 'test', DATA_DIR: this.dataDir },
    });
  }
}

function pgCtl(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = path.join(base, version, 'bin', 'pg_ctl');
    if (existsSync(candidate)) return candidate;
  }
  return 'pg_ctl';
}

// PostgreSQL refuses to run as root (scripts/infra.sh does the same).
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}
