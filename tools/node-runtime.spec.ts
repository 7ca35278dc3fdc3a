import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { targetNodeLine } from '@formline/testing';

const root = path.resolve(__dirname, '..');

// scripts/node-runtime.sh in a checkout of its own (the script and the pin
// only), with stand-ins first on PATH: a `node` that reports a version, an
// `npm` that records its arguments and "installs" a pinned node that reports
// the pin, and, for one case, a `uname` of another platform. What matters is
// which node the scripts then run on, and when the pinned one is fetched.
describe('scripts/node-runtime.sh', () => {
  const line = targetNodeLine();
  const [, minor, patch] = line.minimum.split('.').map(Number);
  let dir: string;
  let checkout: string;
  let pinned: string;

  const script = (file: string, text: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    chmodSync(file, 0o755);
  };
  const fakeNode = (file: string, version: string) =>
    script(file, `#!/bin/sh\nif [ "$1" = --version ]; then echo v${version}; else echo ${version}; fi\n`);

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'formline-node-runtime-'));
    checkout = path.join(dir, 'checkout');
    cpSync(path.join(root, 'scripts/node-runtime.sh'), path.join(checkout, 'scripts/node-runtime.sh'));
    cpSync(
      path.join(root, 'tools/node-runtime/package.json'),
      path.join(checkout, 'tools/node-runtime/package.json'),
    );
    pinned = path.join(checkout, 'tools/node-runtime/node_modules/.bin/node');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const source = (machineNode: string | undefined, options: { platform?: string } = {}) => {
    const bin = mkdtempSync(path.join(dir, 'bin-'));
    if (machineNode) fakeNode(path.join(bin, 'node'), machineNode);
    const npmLog = path.join(bin, 'npm.log');
    script(
      path.join(bin, 'npm'),
      [
        '#!/bin/sh',
        `echo "$*" >> ${npmLog}`,
        'while [ "$#" -gt 0 ]; do if [ "$1" = --prefix ]; then prefix=$2; fi; shift; done',
        `mkdir -p "$prefix/node_modules/.bin" && printf '#!/bin/sh\\nif [ "$1" = --version ]; then echo v${line.minimum}; else echo ${line.minimum}; fi\\n' > "$prefix/node_modules/.bin/node" && chmod +x "$prefix/node_modules/.bin/node"`,
        '',
      ].join('\n'),
    );
    if (options.platform) {
      const [system, machine] = options.platform.split('-');
      script(
        path.join(bin, 'uname'),
        `#!/bin/sh\nif [ "$1" = -s ]; then echo ${system}; else echo ${machine}; fi\n`,
      );
    }
    const result = spawnSync(
      '/bin/bash',
      ['--norc', '-c', `set -euo pipefail; source ${checkout}/scripts/node-runtime.sh; command -v node`],
      // The machine's real node stays out of reach: /usr/bin holds one.
      {
        env: { PATH: `${bin}:${path.join(dir, 'system')}` },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const chosen = result.stdout.trim();
    return {
      status: result.status,
      runsOn: chosen === pinned ? 'pinned' : chosen === path.join(bin, 'node') ? 'own' : chosen,
      npm: existsSync(npmLog) ? readFileSync(npmLog, 'utf8').trim() : undefined,
      stderr: result.stderr,
    };
  };

  beforeAll(() => {
    // The few system tools the script uses, without the machine's node and npm.
    mkdirSync(path.join(dir, 'system'));
    for (const tool of ['dirname', 'sed', 'sort', 'head', 'uname', 'mkdir', 'chmod'])
      for (const from of [`/usr/bin/${tool}`, `/bin/${tool}`])
        if (existsSync(from) && !existsSync(path.join(dir, 'system', tool)))
          script(path.join(dir, 'system', tool), `#!/bin/sh\nexec ${from} "$@"\n`);
  });

  it("keeps the machine's node when it is of the line, from the pinned release on, and fetches nothing", () => {
    for (const version of [
      line.minimum,
      `${line.major}.${minor}.${patch + 1}`,
      `${line.major}.${minor + 1}.0`,
    ])
      expect({ version, ...source(version) }).toEqual({
        version,
        status: 0,
        runsOn: 'own',
        npm: undefined,
        stderr: '',
      });
  });

  it("fetches the pinned node with npm ci, no install script run, when the machine's is older, then reuses it", () => {
    const first = source('20.20.2');
    expect(first).toMatchObject({ status: 0, runsOn: 'pinned' });
    expect(first.npm).toBe(
      `ci --prefix ${checkout}/tools/node-runtime --ignore-scripts --no-audit --no-fund --loglevel=error`,
    );
    expect(first.stderr).toContain(`installing the pinned v${line.minimum}`);
    // Installed once: the next script finds it.
    expect(source('20.20.2')).toEqual({ status: 0, runsOn: 'pinned', npm: undefined, stderr: '' });
  });

  it('runs on the pinned node for an older release of the line, another line, or no node at all', () => {
    for (const version of [`${line.major}.${minor - 1}.0`, `${line.major + 1}.0.0`, undefined])
      expect({ version, ...source(version) }).toMatchObject({ version, status: 0, runsOn: 'pinned' });
  });

  it('asks for a Node.js of the line on a platform it has no pinned build for', () => {
    rmSync(path.join(checkout, 'tools/node-runtime/node_modules'), { recursive: true, force: true });
    const result = source('20.20.2', { platform: 'Darwin-arm64' });
    expect(result).toMatchObject({ status: 1, npm: undefined });
    expect(result.stderr).toContain(`install Node.js ${line.major}`);
  });
});
