import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appMallocEnv, appNames, appNodeFlags, heapLimitFlag } from '@formline/stack';

// No Docker engine runs here, so the image definition is held to its
// structure: stages, user, what it copies from the build context; and its
// entrypoint is run for real, with a stand-in `node` that prints what it was
// asked to run.

const root = path.resolve(__dirname, '..');
const entrypoint = path.join(root, 'deploy/image/entrypoint.sh');

interface Stage {
  name: string;
  from: string;
  instructions: string[];
}

// `FROM image AS name` starts a stage; continuation lines are joined.
function dockerfileStages(): Stage[] {
  const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  for (const line of text.split('\n').map((raw) => raw.trim())) {
    if (!line || line.startsWith('#')) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ from: from[1], name: from[2] ?? `stage${stages.length}`, instructions: [] });
    else stages.at(-1)?.instructions.push(line);
  }
  return stages;
}

// Docker's rule: the last .dockerignore line that matches a path decides.
function ignoredByDocker(file: string): boolean {
  const lines = readFileSync(path.join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  let ignored = false;
  for (const line of lines) {
    const negated = line.startsWith('!');
    const pattern = negated ? line.slice(1) : line;
    const regex = new RegExp(
      `^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`,
    );
    if (regex.test(file)) ignored = !negated;
  }
  return ignored;
}

describe('the Dockerfile', () => {
  const stages = dockerfileStages();
  const stage = (name: string) => {
    const found = stages.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no stage ${name} in the Dockerfile`);
    return found;
  };
  const chain = (name: string): Stage[] => {
    const current = stage(name);
    return stages.some((candidate) => candidate.name === current.from)
      ? [current, ...chain(current.from)]
      : [current];
  };
  const effective = (name: string, instruction: string) =>
    chain(name)
      .flatMap((current) => current.instructions)
      .filter((line) => line.toUpperCase().startsWith(`${instruction} `));

  it('installs and builds in their own stages and ships two small targets that carry neither', () => {
    // Dependencies before the code, so that a change of code reuses the install.
    expect(stage('deps').instructions).toEqual(
      expect.arrayContaining([expect.stringMatching(/^RUN npm install --no-audit/)]),
    );
    expect(stage('deps').instructions.join('\n')).not.toMatch(/^COPY \. /m);
    expect(stage('build').instructions).toEqual(expect.arrayContaining(['RUN node tools/build.mjs']));
    expect(chain('build').map((current) => current.name)).toContain('deps');
    // See docs/decisions/operations-and-deploy.md: npm ci cannot work with this lockfile.
    expect(stages.flatMap((current) => current.instructions).join('\n')).not.toMatch(/npm ci\b/);
    expect(stage('prod-deps').instructions.join('\n')).toMatch(/npm prune --omit=dev/);
    for (const target of ['app', 'migrate']) {
      expect(chain(target).map((current) => current.name)).not.toContain('build');
      expect(chain(target).map((current) => current.name)).not.toContain('deps');
      expect(stage(target).from).toBe('runtime');
    }
    expect(stage('app').instructions).toEqual(
      expect.arrayContaining([
        'COPY --from=prod-deps /src/node_modules ./node_modules',
        'COPY --from=build /src/dist ./dist',
      ]),
    );
  });

  it.each(['app', 'migrate'])('runs the %s target as a numeric, non-root user', (target) => {
    const user = effective(target, 'USER').at(-1);
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
  });

  it.each(['app', 'migrate'])('starts the %s target through tini and the entrypoint', (target) => {
    expect(effective(target, 'ENTRYPOINT').at(-1)).toBe(
      'ENTRYPOINT ["/usr/bin/tini", "--", "/bin/sh", "/usr/local/bin/formline"]',
    );
  });

  it('copies from the build context only files that exist and are not ignored', () => {
    const sources = stages
      .flatMap((current) => current.instructions)
      .filter((line) => /^COPY\s/i.test(line) && !/--from=/.test(line))
      .flatMap((line) =>
        line
          .split(/\s+/)
          .slice(1, -1)
          .filter((word) => !word.startsWith('--')),
      );
    expect(sources).toEqual(expect.arrayContaining(['deploy/image/entrypoint.sh', 'prisma', 'tools/db']));
    for (const source of sources) {
      expect({ source, exists: existsSync(path.join(root, source)) }).toEqual({ source, exists: true });
      expect({ source, ignored: ignoredByDocker(source) }).toEqual({ source, ignored: false });
    }
  });

  it('keeps local installs, outputs and data out of the build context', () => {
    for (const local of [
      'node_modules',
      'tools/node-runtime/node_modules',
      'dist',
      '.git',
      '.data',
      'libs/db/src/generated',
      'x.log',
    ])
      expect({ local, ignored: ignoredByDocker(local) }).toEqual({ local, ignored: true });
    for (const needed of [
      'apps/gateway/src/main.ts',
      'libs/ops/src/index.ts',
      'tools/build.mjs',
      'tools/build/browser-bundle.mjs',
      'package-lock.json',
      // The respondent page's browser build and its data, built inside the image.
      'apps/respondent-web/bundle.mjs',
      'apps/respondent-web/src/favicon.svg',
      'libs/respondent-page/src/texts/en.json',
      // The console's, likewise.
      'apps/console/bundle.mjs',
      'apps/console/src/console.css',
      'apps/console/src/favicon.svg',
    ])
      expect({ needed, ignored: ignoredByDocker(needed) }).toEqual({ needed, ignored: false });
  });
});

describe('the image entrypoint', () => {
  let dir: string;
  const image = (kind: 'app' | 'migrate') => path.join(dir, kind);

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'formline-entrypoint-'));
    mkdirSync(path.join(dir, 'bin'));
    writeFileSync(path.join(dir, 'bin/node'), '#!/bin/sh\necho "node $*"\n');
    chmodSync(path.join(dir, 'bin/node'), 0o755);
    for (const app of appNames) {
      mkdirSync(path.join(image('app'), `dist/apps/${app}`), { recursive: true });
      writeFileSync(path.join(image('app'), `dist/apps/${app}/main.js`), '');
    }
    mkdirSync(path.join(image('migrate'), 'tools/db'), { recursive: true });
    writeFileSync(path.join(image('migrate'), 'tools/db/prisma-migrate.cjs'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (kind: 'app' | 'migrate', args: string[], env: Record<string, string> = {}) => {
    const result = spawnSync('sh', [entrypoint, ...args], {
      cwd: image(kind),
      // The machine's own cgroup stays out of it: no limit unless a test sets one.
      env: { PATH: `${path.join(dir, 'bin')}:/usr/bin:/bin`, FORMLINE_CGROUP_DIR: dir, ...env },
      encoding: 'utf8',
    });
    return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
  };

  // The node these tests run on is of the images' line (tools/node-line.spec.ts):
  // a flag that line no longer knows would stop every app at start.
  it("passes only flags the product's Node.js accepts", () => {
    const result = spawnSync(process.execPath, [...appNodeFlags, heapLimitFlag('media'), '-e', ''], {
      encoding: 'utf8',
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it("sets glibc's malloc as the stack does, unless the environment sets it", () => {
    const envDir = path.join(dir, 'bin-env');
    mkdirSync(envDir, { recursive: true });
    writeFileSync(path.join(envDir, 'node'), '#!/bin/sh\nenv | grep ^MALLOC_ | sort\n');
    chmodSync(path.join(envDir, 'node'), 0o755);
    const printed = (env: Record<string, string>) =>
      spawnSync('sh', [entrypoint, 'responses'], {
        cwd: image('app'),
        env: { PATH: `${envDir}:/usr/bin:/bin`, ...env },
        encoding: 'utf8',
      }).stdout.trim();
    const expected = Object.entries(appMallocEnv)
      .map(([name, value]) => `${name}=${value}`)
      .sort()
      .join('\n');
    expect(printed({})).toBe(expected);
    expect(printed({ MALLOC_ARENA_MAX: '4' })).toContain('MALLOC_ARENA_MAX=4');
  });

  it("bounds the heap by half the container's memory limit, the stack's figure without one", () => {
    const heapOf = (files: Record<string, string>, app = 'responses') => {
      const cgroup = mkdtempSync(path.join(dir, 'cgroup-'));
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(cgroup, name)), { recursive: true });
        writeFileSync(path.join(cgroup, name), `${text}\n`);
      }
      const flag = run('app', [app], { FORMLINE_CGROUP_DIR: cgroup }).stdout.match(
        /--max-old-space-size=\d+/,
      );
      return flag?.[0];
    };
    const mib = 1024 * 1024;
    expect(heapOf({ 'memory.max': String(512 * mib) })).toBe('--max-old-space-size=256');
    expect(heapOf({ 'memory.max': String(2048 * mib) })).toBe('--max-old-space-size=1024');
    expect(heapOf({ 'memory/memory.limit_in_bytes': String(1024 * mib) })).toBe('--max-old-space-size=512');
    expect(heapOf({ 'memory.max': String(64 * mib) })).toBe('--max-old-space-size=64');
    // No limit: the stack's figures, as the bench and the tests run the apps.
    expect(heapOf({ 'memory.max': 'max' })).toBe(heapLimitFlag('responses'));
    expect(heapOf({ 'memory/memory.limit_in_bytes': '9223372036854771712' })).toBe(
      heapLimitFlag('responses'),
    );
    expect(heapOf({})).toBe(heapLimitFlag('responses'));
    expect(heapOf({}, 'media')).toBe(heapLimitFlag('media'));
  });

  it.each(appNames)('runs %s, named by argument or by APP', (app) => {
    const expected = {
      status: 0,
      stdout: `node ${[...appNodeFlags, heapLimitFlag(app)].join(' ')} dist/apps/${app}/main.js`,
      stderr: '',
    };
    expect(run('app', [app])).toEqual(expected);
    expect(run('app', [], { APP: app })).toEqual(expected);
    // The path the build writes: tools/build.mjs bundles apps/<app>/src/main.ts there.
    expect(existsSync(path.join(root, `apps/${app}/src/main.ts`))).toBe(true);
  });

  it('runs a database migration, `deploy` unless told', () => {
    expect(run('migrate', ['migrate', 'global']).stdout).toBe(
      'node tools/db/prisma-migrate.cjs global migrate deploy',
    );
    expect(run('migrate', ['migrate', 'responses', 'status']).stdout).toBe(
      'node tools/db/prisma-migrate.cjs responses migrate status',
    );
  });

  it('refuses what it cannot run, saying why', () => {
    expect(run('app', ['frontend'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("unknown app 'frontend'"),
    });
    expect(run('app', [])).toMatchObject({ status: 2, stderr: expect.stringContaining("unknown app ''") });
    expect(run('app', ['migrate'])).toMatchObject({ status: 2, stderr: expect.stringContaining('usage') });
    expect(run('app', ['migrate', 'global'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('migrate image'),
    });
    expect(run('migrate', ['gateway'])).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('app image'),
    });
  });
});
