import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..');

// Library scopes mean something: a library one service uses carries that
// service's scope, one a few services share a scope naming them
// (tools/lint/module-boundaries.constraints.mjs, `sharedWith`), one only tests
// use `scope:tooling`; and lint refuses such a library anywhere else.
// The texts are linted with the repository's own configuration, as if they
// were files inside the real apps, all in one ESLint process
// (tools/lint/lint-texts.mjs). The rule reads every project.json as lint
// starts (no project graph, no cache), so the answer depends only on the tags
// and constraints in the tree. The files are JavaScript: a TypeScript file
// would need the type-aware program, which takes much longer to build.
const rule = 'formline/enforce-module-boundaries';

const forbidden = [
  {
    name: "the webhooks service's delivery library in the global service",
    file: 'apps/global/src/probe.mjs',
    code: "export { typeformSignature } from '@formline/webhook-delivery';",
    message:
      'apps/global (scope:global) may import only projects tagged scope:global or scope:shared; ' +
      'libs/webhook-delivery is tagged type:lib, scope:webhooks, platform:node.',
  },
  {
    name: 'the HTTP edge in a service that answers only NATS',
    file: 'apps/responses/src/probe.mjs',
    code: "export { AccessGuard } from '@formline/http-edge';",
    message:
      'apps/responses (scope:responses) may import only projects tagged scope:responses or scope:shared; ' +
      'libs/http-edge is tagged type:lib, scope:http-edge, platform:node.',
  },
  {
    name: "the respondent's page in the media app, which shares the HTTP edge but not the page",
    file: 'apps/media/src/probe.mjs',
    code: "export { respondentPage } from '@formline/respondent-page';",
    message:
      'apps/media (scope:media) may import only projects tagged scope:media or scope:shared or scope:http-edge; ' +
      'libs/respondent-page is tagged type:lib, scope:respondent-page, platform:node.',
  },
  {
    name: "the tests' form fixtures in an app's own code",
    file: 'apps/gateway/src/probe.mjs',
    code: "export { typeformFormWithEveryField } from '@formline/form-fixtures';",
    message:
      'apps/gateway (scope:gateway) may import only projects tagged ' +
      'scope:gateway or scope:shared or scope:http-edge or scope:respondent-page; ' +
      'libs/form-fixtures is tagged type:lib, scope:tooling, platform:any.',
  },
];

const allowed = [
  {
    name: 'the delivery library in the dispatcher',
    file: 'apps/dispatcher/src/probe.mjs',
    lib: 'webhook-delivery',
  },
  {
    name: 'the delivery library in the webhooks service',
    file: 'apps/webhooks/src/probe.mjs',
    lib: 'webhook-delivery',
  },
  { name: 'the HTTP edge in the gateway', file: 'apps/gateway/src/probe.mjs', lib: 'http-edge' },
  { name: 'the HTTP edge in the media app', file: 'apps/media/src/probe.mjs', lib: 'http-edge' },
  {
    name: "the respondent's page in the gateway",
    file: 'apps/gateway/src/probe.mjs',
    lib: 'respondent-page',
  },
  { name: 'a shared library in the global service', file: 'apps/global/src/probe.mjs', lib: 'contracts' },
].map(({ lib, ...rest }) => ({ ...rest, code: `export * from '@formline/${lib}';` }));

type Linted = { file: string; rules: string[]; messages: string[] };

let results: Map<string, Linted>;
beforeAll(() => {
  const texts = [...forbidden, ...allowed];
  const lint = spawnSync(process.execPath, [path.join(root, 'tools/lint/lint-texts.mjs')], {
    cwd: root,
    input: JSON.stringify(texts.map(({ file, code }) => ({ file, code }))),
    encoding: 'utf8',
  });
  if (lint.status !== 0) throw new Error(lint.stderr);
  const linted = JSON.parse(lint.stdout) as Linted[];
  results = new Map(texts.map(({ name }, i) => [name, linted[i]]));
});

describe('lint on an app importing a library of another scope', () => {
  it.each(forbidden.map((text) => [text.name, text] as const))('fails on %s', (name, { file, message }) => {
    expect(results.get(name)).toEqual({ file, rules: [rule], messages: [message] });
  });
});

describe('lint on an app importing a library its scope may use', () => {
  it.each(allowed.map((text) => [text.name, text] as const))('passes %s', (name, { file }) => {
    expect(results.get(name)).toEqual({ file, rules: [], messages: [] });
  });
});

// The scopes above hold only if each library's tag follows who uses it
// (docs/decisions/code-structure.md, "Library scopes"): a `scope:shared`
// library that one service alone uses, or none, would let every other service
// use it unchecked. Who uses a library is the code of apps/ and libs/ that
// imports it; tests, build scripts and tooling projects are left out, as they
// may use libraries of any scope.
describe('the scope of each shared library', () => {
  const projectOf = (file: string) => file.split('/').slice(0, 2).join('/');
  const scopeOf = (project: string) =>
    (
      JSON.parse(readFileSync(path.join(root, project, 'project.json'), 'utf8')) as { tags: string[] }
    ).tags.find((tag) => tag.startsWith('scope:')) ?? 'no scope';
  const listed = (...paths: string[]) =>
    execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...paths], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file !== '' && existsSync(path.join(root, file)));

  it('is used by several scopes, or by a shared library', () => {
    const code = listed('apps', 'libs').filter(
      (file) =>
        /\.(tsx?|mjs|cjs|js)$/.test(file) &&
        !/\.(spec|int-spec|e2e-spec|images-spec)\.ts$/.test(file) &&
        !file.endsWith('/bundle.mjs') &&
        !file.includes('/generated/'),
    );
    const scopesUsing = new Map<string, Set<string>>();
    for (const file of code) {
      const scope = scopeOf(projectOf(file));
      if (scope === 'scope:tooling') continue;
      const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
      for (const { fileName } of importedFiles) {
        const name = /^@formline\/([^/]+)/.exec(fileName)?.[1];
        const library = `libs/${name}`;
        if (name === undefined || library === projectOf(file)) continue;
        scopesUsing.set(library, (scopesUsing.get(library) ?? new Set()).add(scope));
      }
    }
    const misplaced = listed('libs/*/project.json')
      .map(path.dirname)
      .filter((library) => scopeOf(library) === 'scope:shared')
      .map((library) => ({ library, usedBy: [...(scopesUsing.get(library) ?? [])].sort() }))
      .filter(({ usedBy }) => usedBy.length === 0 || (usedBy.length === 1 && usedBy[0] !== 'scope:shared'));
    expect(misplaced).toEqual([]);
  });
});
