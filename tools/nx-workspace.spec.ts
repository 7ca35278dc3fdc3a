import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appMallocEnv, appNames, appNodeFlags, heapLimitFlag } from '@formline/stack';

const root = path.resolve(__dirname, '..');

// Nx offline, as CI runs it: no daemon, no cloud.
function nx(...args: string[]): string {
  const result = spawnSync(path.join(root, 'node_modules/.bin/nx'), args, {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_TUI: 'false',
      NX_SKIP_NX_CACHE: 'true',
    },
  });
  if (result.status !== 0) throw new Error(`nx ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

interface Target {
  options?: { command?: string };
  parallelism?: boolean;
  dependsOn?: unknown[];
}

interface ProjectGraph {
  nodes: Record<string, { data: { root: string; tags?: string[]; targets: Record<string, Target> } }>;
  dependencies: Record<string, { target: string }[]>;
}

// Nx's own project graph, from the TypeScript imports of every file.
function projectGraph(): ProjectGraph {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nx-graph-'));
  try {
    nx('graph', `--file=${path.join(dir, 'graph.json')}`);
    return (JSON.parse(readFileSync(path.join(dir, 'graph.json'), 'utf8')) as { graph: ProjectGraph }).graph;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `nx serve <app>` runs an app as the stack and the image do: the same
// node flags, heap bound and malloc setting (libs/stack's app-process.ts).
describe("the apps' serve targets", () => {
  it.each(appNames)('serves %s with the flags and environment every other start uses', (app) => {
    const project = JSON.parse(readFileSync(path.join(root, 'apps', app, 'project.json'), 'utf8')) as {
      targets: { serve: { command: string } };
    };
    const env = Object.entries(appMallocEnv).map(([name, value]) => `${name}=${value}`);
    expect(project.targets.serve.command).toBe(
      [...env, 'node', ...appNodeFlags, heapLimitFlag(app), `dist/apps/${app}/main.js`].join(' '),
    );
  });
});

describe('the Nx workspace', () => {
  let graph: ProjectGraph;
  beforeAll(() => {
    graph = projectGraph();
  });
  const byRoot = (projectRoot: string) =>
    Object.entries(graph.nodes).find(([, node]) => node.data.root === projectRoot)?.[0];
  const dependenciesOf = (name: string) => graph.dependencies[name].map((dependency) => dependency.target);
  const tagged = (tag: string) =>
    Object.keys(graph.nodes).filter((name) => graph.nodes[name].data.tags?.includes(tag));

  it('makes every app and lib a project with its own build, lint and test', () => {
    for (const kind of ['apps', 'libs']) {
      for (const folder of readdirSync(path.join(root, kind))) {
        const name = byRoot(`${kind}/${folder}`);
        expect({ folder, name }).toEqual({ folder, name: expect.any(String) });
        const { targets } = graph.nodes[name!].data;
        expect(targets.build.options?.command).toBe(`node tools/build.mjs ${kind}/${folder}`);
        expect(targets.lint.options?.command).toBe(`eslint ${kind}/${folder} --max-warnings 0`);
        expect(targets.test.options?.command).toContain(`jest ${kind}/${folder}/ --selectProjects unit`);
      }
    }
  });

  it('draws dependencies from the imports: nothing but the test tiers depends on an app', () => {
    expect(dependenciesOf('gateway')).toEqual(
      expect.arrayContaining(['contracts', 'messaging', 'app-config']),
    );
    expect(dependenciesOf('tools')).toContain('app-config');
    expect(dependenciesOf('deploy')).toContain('app-config');
    // The e2e tier runs the apps as processes: it depends on them without importing them.
    const apps = tagged('type:app');
    expect(dependenciesOf('e2e')).toEqual(expect.arrayContaining(apps));
    const notLib = (name: string) =>
      name in graph.nodes && !graph.nodes[name].data.tags?.includes('type:lib');
    for (const name of Object.keys(graph.nodes)) {
      if (graph.nodes[name].data.tags?.includes('type:e2e')) continue;
      const isLib = !notLib(name);
      const forbidden = dependenciesOf(name).filter((target) =>
        isLib ? notLib(target) : apps.includes(target),
      );
      expect({ name, forbidden }).toEqual({ name, forbidden: [] });
    }
  });

  it('reaches each test tier through Nx: test, test-int where integration specs are, test-e2e', () => {
    const holdsIntegrationSpecs = (dir: string): boolean =>
      readdirSync(path.join(root, dir), { withFileTypes: true }).some((entry) =>
        entry.isDirectory()
          ? holdsIntegrationSpecs(path.join(dir, entry.name))
          : entry.name.endsWith('.int-spec.ts'),
      );
    const withIntegration: string[] = [];
    for (const kind of ['apps', 'libs']) {
      for (const folder of readdirSync(path.join(root, kind))) {
        const name = byRoot(`${kind}/${folder}`)!;
        const target = graph.nodes[name].data.targets['test-int'];
        if (!holdsIntegrationSpecs(`${kind}/${folder}`)) {
          expect({ name, target }).toEqual({ name, target: undefined });
          continue;
        }
        withIntegration.push(name);
        expect(target.options?.command).toBe(`jest ${kind}/${folder}/ --selectProjects integration`);
        // The tiers share the test profile's servers and databases: one at a time.
        expect(target.parallelism).toBe(false);
      }
    }
    expect(withIntegration).toEqual(expect.arrayContaining(['http-edge', 'responses', 'webhooks']));
    const e2e = graph.nodes.e2e.data.targets['test-e2e'];
    expect(e2e.options?.command).toBe('jest test/e2e/ --selectProjects e2e --maxWorkers 2');
    expect(e2e.parallelism).toBe(false);
    expect(e2e.dependsOn).toContainEqual({
      projects: ['tag:type:app', 'tag:type:lib', 'tools'],
      target: 'build',
    });
    // A change in the responses service reaches its own integration specs, no others'.
    const affected = JSON.parse(
      nx(
        'show',
        'projects',
        '--affected',
        '--files=apps/responses/src/outbox/outbox-relay.job.ts',
        '--withTarget=test-int',
        '--json',
      ),
    ) as string[];
    expect(affected).toEqual(['responses']);
  });

  it('has no dependency cycle between projects, their tests included', () => {
    const cycles: string[][] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (name: string, trail: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(name)), name]);
        return;
      }
      state.set(name, 'visiting');
      for (const next of dependenciesOf(name)) if (next in graph.nodes) visit(next, [...trail, name]);
      state.set(name, 'done');
    };
    for (const name of Object.keys(graph.nodes)) visit(name, []);
    expect(cycles).toEqual([]);
  });

  it('answers which projects a change affects', () => {
    const affected = JSON.parse(
      nx('show', 'projects', '--affected', '--files=libs/form-logic/src/index.ts', '--json'),
    ) as string[];
    expect(affected).toEqual(expect.arrayContaining(['form-logic', 'global', 'responses', 'gateway', 'e2e']));
    expect(affected).not.toContain('dispatcher');
    expect(affected).not.toContain('webhooks');
  });
});
