import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// Lints a snippet with the project's own ESLint configuration, as `npm test`
// does, as if it were the given file (JavaScript: a TypeScript file would need
// the whole type-aware program, which takes a minute to build).
function lint(code: string, asFile = 'tools/regex-probe.mjs'): { status: number | null; output: string } {
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/eslint'),
    ['--stdin', '--stdin-filename', asFile],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

// The build fails when a regex that backtracks super-linearly is added: such a
// pattern on caller input lets one request stall a service.
describe('the lint rule against super-linear regexes', () => {
  it('fails on the email pattern that stalled the responses service', () => {
    const { status, output } = lint('export const email = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;\n');
    expect(status).toBe(1);
    expect(output).toContain('regexp/no-super-linear-backtracking');
  });

  it('fails on a pattern that moves super-linearly', () => {
    const { status, output } = lint("export const trim = (s) => s.replace(/\\/+$/, '');\n");
    expect(status).toBe(1);
    expect(output).toContain('regexp/no-super-linear-move');
  });

  it('passes a linear pattern', () => {
    expect(lint('export const digits = /^\\d+$/;\n').status).toBe(0);
  });
});

// The build fails when a NATS subject is spelled outside libs/contracts: it
// would drift from the subject its handler listens on.
describe('the lint rule against NATS subjects spelled outside libs/contracts', () => {
  it('fails on a subject in an app', () => {
    const { status, output } = lint(
      "export const subject = 'forms.form.get.v1';\n",
      'apps/gateway/src/probe.mjs',
    );
    expect(status).toBe(1);
    expect(output).toContain('Name NATS subjects through Subjects');
  });

  it('passes the same subject in libs/contracts, and other dotted strings anywhere', () => {
    expect(lint("export const subject = 'forms.form.get.v1';\n", 'libs/contracts/src/probe.mjs').status).toBe(
      0,
    );
    expect(lint("export const host = 'forms.example.com';\n", 'apps/gateway/src/probe.mjs').status).toBe(0);
  });
});

// The build fails when an import crosses a project boundary that the tags of
// project.json forbid: apps use libs only, libs never reach into apps or
// tools, and a lib is imported through its @formline alias. The snippets go
// through ESLint's API in one process, with the project's configuration.
// With `workspace`, the snippets are linted in that workspace with its own
// configuration file, not in this repository.
function lintMany(
  snippets: { file: string; code: string }[],
  workspace?: { root: string; configFile: string },
): { file: string; rules: string[]; messages: string }[] {
  const script = `
    import { ESLint } from 'eslint';
    const snippets = JSON.parse(await new Promise((done) => {
      let text = '';
      process.stdin.on('data', (chunk) => (text += chunk)).on('end', () => done(text));
    }));
    const workspace = process.env.LINT_WORKSPACE ? JSON.parse(process.env.LINT_WORKSPACE) : undefined;
    const eslint = new ESLint(
      workspace ? { cwd: workspace.root, overrideConfigFile: workspace.configFile } : { cwd: process.cwd() },
    );
    const results = [];
    for (const { file, code } of snippets) {
      const [result] = await eslint.lintText(code, { filePath: file });
      results.push({
        file,
        rules: result.messages.map((message) => message.ruleId ?? 'parse'),
        messages: result.messages.map((message) => message.message).join('\\n'),
      });
    }
    console.log(JSON.stringify(results));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    input: JSON.stringify(snippets),
    encoding: 'utf8',
    env: { ...process.env, LINT_WORKSPACE: workspace ? JSON.stringify(workspace) : '' },
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

describe('the module boundary rule', () => {
  const rule = 'formline/enforce-module-boundaries';
  const forbidden = [
    // an app importing another app, by import and by require
    {
      file: 'apps/gateway/src/probe.mjs',
      code: "export { FormService } from '../../global/src/form.service';",
    },
    { file: 'apps/dispatcher/src/probe.cjs', code: "require('../../webhooks/src/main');" },
    // tools, deploy checks and bench scripts importing an app
    { file: 'tools/docs/probe.mjs', code: "export { x } from '../../apps/gateway/src/gateway.module';" },
    { file: 'deploy/checks/probe.mjs', code: "export { x } from '../../apps/global/src/forms.module';" },
    {
      file: 'bench/baseline/probe.mjs',
      code: "export { x } from '../../apps/gateway/src/auth/access.guard';",
    },
    // libs importing an app, a tool, a test
    { file: 'libs/config/src/probe.mjs', code: "export * from '../../../apps/gateway/src/gateway.module';" },
    {
      file: 'libs/testing/src/probe.mjs',
      code: "export const seed = () => import('../../../tools/seed/demo-seed');",
    },
    { file: 'libs/testing/src/probe.mjs', code: "import '../../../test/e2e/global-setup';" },
  ];
  const throughPath = {
    file: 'apps/global/src/probe.mjs',
    code: "export { loadConfig } from '../../../libs/config/src';",
  };
  const allowed = [
    {
      file: 'apps/gateway/src/probe.mjs',
      code: "export { loadConfig } from '@formline/config';\nexport { x } from './gateway.module';",
    },
    {
      file: 'tools/docs/probe.mjs',
      code: "export { appConfigSchemas } from '@formline/app-config';\nexport { y } from '../seed/demo-seed';",
    },
    { file: 'libs/app-config/src/probe.mjs', code: "export { regionVars } from '@formline/config';" },
    { file: 'test/e2e/probe.mjs', code: "export { seedDemo } from '../../tools/seed/demo-seed';" },
  ];
  let results: ReturnType<typeof lintMany>;
  beforeAll(() => {
    results = lintMany([...forbidden, throughPath, ...allowed]);
  });

  it('fails on every import across a forbidden boundary', () => {
    for (const result of results.slice(0, forbidden.length)) {
      // Once or more: an app importing another crosses both kind and scope.
      expect({ file: result.file, rules: [...new Set(result.rules)] }).toEqual({
        file: result.file,
        rules: [rule],
      });
      expect(result.messages).toContain('may import only projects tagged');
    }
  });

  it('fails on a lib imported by a path into its folder', () => {
    const result = results[forbidden.length];
    expect(result).toMatchObject({ rules: [rule] });
    expect(result.messages).toContain('through its alias @formline/config');
  });

  it('passes libs through their alias, files of the same project, and tests using tools', () => {
    for (const result of results.slice(forbidden.length + 1)) expect(result).toMatchObject({ rules: [] });
  });
});

// Every project says what it is, whose it is and where it runs (the scheme is
// in docs/architecture.md, "Project tags"): a project without one of the three
// would escape the constraints on it.
describe('the project tags', () => {
  it('give every project one kind, one scope and one platform', () => {
    const script = `
      import { findProjects } from './tools/lint/module-boundaries.rule.mjs';
      console.log(JSON.stringify(findProjects().map(({ name, tags }) => ({ name, tags }))));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    const projects: { name: string; tags: string[] }[] = JSON.parse(result.stdout);
    expect(projects.length).toBeGreaterThan(20);
    for (const { name, tags } of projects) {
      const kinds = (prefix: string) => tags.filter((tag) => tag.startsWith(prefix)).length;
      expect({ name, type: kinds('type:'), scope: kinds('scope:'), platform: kinds('platform:') }).toEqual({
        name,
        type: 1,
        scope: 1,
        platform: 1,
      });
      expect(tags.find((tag) => tag.startsWith('platform:'))).toMatch(/^platform:(node|any|browser)$/);
    }
  });
});

// This repository's own configuration, on imports that the tags forbid: a
// Node module or a Node library in a `platform:any` lib, and a tooling lib in
// an app's code (its tests may use one: their constraints are checked with
// the test workspace below).
describe('the module boundary rule on scopes and platforms', () => {
  const rule = 'formline/enforce-module-boundaries';
  let results: ReturnType<typeof lintMany>;
  beforeAll(() => {
    results = lintMany([
      { file: 'libs/form-logic/src/probe.mjs', code: "export { randomUUID } from 'node:crypto';" },
      { file: 'libs/form-logic/src/probe.mjs', code: "export { readFileSync } from 'fs';" },
      { file: 'libs/contracts/src/probe.mjs', code: "export { Injectable } from '@nestjs/common';" },
      {
        file: 'libs/form-logic/src/probe.mjs',
        code: "export { parseFormDefinition } from '@formline/form-definition';",
      },
      { file: 'apps/global/src/probe.mjs', code: "export { createAccount } from '@formline/admin';" },
      { file: 'libs/contracts/src/probe.mjs', code: "export { eventually } from '@formline/testing';" },
      // allowed: an any lib using another, a Node lib using Node
      { file: 'libs/form-logic/src/probe.mjs', code: "export { inputLimits } from '@formline/input';" },
      { file: 'libs/ids/src/probe.mjs', code: "export { randomBytes } from 'node:crypto';" },
    ]);
  });

  it('fails on Node modules and Node-only packages in a platform:any lib', () => {
    for (const result of results.slice(0, 3)) {
      expect(result).toMatchObject({ rules: [rule] });
      expect(result.messages).toMatch(/\(platform:any\) may not import (node:crypto|fs|@nestjs\/common)/);
    }
  });

  it('fails on a platform:node lib in a platform:any lib', () => {
    expect(results[3]).toMatchObject({ rules: [rule] });
    expect(results[3].messages).toContain('(platform:any) may import only projects tagged platform:any');
  });

  it('fails on the tooling libraries outside tests', () => {
    expect(results[4].messages).toContain(
      '(scope:global) may import only projects tagged scope:global or scope:shared',
    );
    expect(results[5].messages).toContain('(scope:shared) may import only projects tagged scope:shared');
  });

  it('passes what the platforms allow', () => {
    for (const result of results.slice(6)) expect(result).toMatchObject({ rules: [] });
  });

  it('checks tests with the constraints of tests', () => {
    const script = `
      import { ESLint } from 'eslint';
      import { depConstraints } from './tools/lint/module-boundaries.constraints.mjs';
      const eslint = new ESLint({ cwd: process.cwd() });
      const options = async (file) =>
        (await eslint.calculateConfigForFile(file)).rules['${rule}'][1].depConstraints;
      console.log(JSON.stringify({
        code: (await options('apps/global/src/x.ts')) ,
        test: (await options('apps/global/src/x.int-spec.ts')),
        expected: { code: depConstraints({ tests: false }), test: depConstraints({ tests: true }) },
      }));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    const { code, test, expected } = JSON.parse(result.stdout);
    expect(code).toEqual(expected.code);
    expect(test).toEqual(expected.test);
    expect(JSON.stringify(code)).toContain('platform:any');
    expect(JSON.stringify(test)).not.toContain('platform:');
  });
});

// The same constraints in a small workspace of the spec's own, in
// TypeScript: a browser app, a browser lib, an `any` lib, a Node lib, a
// tooling lib and a Node app, each with its tags. What runs in a browser
// imports only `any` and browser projects, type-only imports aside; no app
// imports an app; tests may use the tooling lib and Node.
describe('the module boundary rule in a workspace with a browser app', () => {
  const rule = 'formline/enforce-module-boundaries';
  const projects: Record<string, string[]> = {
    'apps/web': ['type:app', 'scope:respondent', 'platform:browser'],
    'apps/api': ['type:app', 'scope:gateway', 'platform:node'],
    'libs/page': ['type:lib', 'scope:respondent', 'platform:browser'],
    'libs/logic': ['type:lib', 'scope:shared', 'platform:any'],
    'libs/server': ['type:lib', 'scope:shared', 'platform:node'],
    'libs/kit': ['type:lib', 'scope:tooling', 'platform:node'],
  };
  let workspace: { root: string; configFile: string };
  let results: ReturnType<typeof lintMany>;

  const forbidden = [
    { file: 'apps/web/src/main.ts', code: "import { serve } from '@formline/server';" },
    { file: 'apps/web/src/main.ts', code: "import { readFile } from 'node:fs/promises';" },
    { file: 'apps/web/src/main.ts', code: "import { Pool } from 'pg';" },
    { file: 'apps/web/src/main.ts', code: "import { handler } from '../../api/src/handler';" },
    { file: 'libs/logic/src/rule.ts', code: "import { render } from '@formline/page';" },
    { file: 'libs/logic/src/rule.ts', code: "import { serve } from '@formline/server';" },
    { file: 'libs/page/src/page.ts', code: "import { serve, type Options } from '@formline/server';" },
    { file: 'apps/api/src/main.ts', code: "import { render } from '@formline/page';" },
    { file: 'apps/api/src/main.ts', code: "import { fixture } from '@formline/kit';" },
  ];
  const allowed = [
    {
      file: 'apps/web/src/main.ts',
      code: "import { render } from '@formline/page';\nimport { evaluate } from '@formline/logic';",
    },
    { file: 'apps/web/src/main.ts', code: "import type { Options } from '@formline/server';" },
    { file: 'libs/logic/src/rule.ts', code: "import { type Options } from '@formline/server';" },
    { file: 'libs/logic/src/rule.ts', code: "export type { Options } from '@formline/server';" },
    {
      file: 'apps/api/src/main.ts',
      code: "import { serve } from '@formline/server';\nimport { evaluate } from '@formline/logic';",
    },
    {
      file: 'apps/web/src/main.spec.ts',
      code: "import { fixture } from '@formline/kit';\nimport { readFile } from 'node:fs/promises';",
    },
  ];

  beforeAll(() => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'module-boundaries-'));
    const paths: Record<string, string[]> = {};
    for (const [project, tags] of Object.entries(projects)) {
      mkdirSync(path.join(dir, project, 'src'), { recursive: true });
      writeFileSync(
        path.join(dir, project, 'project.json'),
        JSON.stringify({ name: path.basename(project), tags }),
      );
      writeFileSync(path.join(dir, project, 'src/index.ts'), 'export {};\n');
      if (project.startsWith('libs/'))
        paths[`@formline/${path.basename(project)}`] = [`${project}/src/index.ts`];
    }
    writeFileSync(path.join(dir, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { paths } }));
    const configFile = path.join(dir, 'eslint.config.mjs');
    const from = (file: string) => JSON.stringify(path.join(root, file));
    writeFileSync(
      configFile,
      `import { createRequire } from 'node:module';
      import { depConstraints } from ${from('tools/lint/module-boundaries.constraints.mjs')};
      import { moduleBoundaries } from ${from('tools/lint/module-boundaries.rule.mjs')};
      const parser = createRequire(${from('package.json')})('@typescript-eslint/parser');
      const workspaceRoot = ${JSON.stringify(dir)};
      const options = (tests) => ({ workspaceRoot, depConstraints: depConstraints({ tests, workspaceRoot }) });
      export default [
        { files: ['**/*.ts'], languageOptions: { parser }, plugins: { formline: moduleBoundaries },
          rules: { '${rule}': ['error', options(false)] } },
        { files: ['**/*.spec.ts'], rules: { '${rule}': ['error', options(true)] } },
      ];\n`,
    );
    workspace = { root: dir, configFile };
    results = lintMany(
      [...forbidden, ...allowed].map(({ file, code }) => ({ file: path.join(dir, file), code })),
      workspace,
    );
  });
  afterAll(() => rmSync(workspace.root, { recursive: true, force: true }));

  it('fails on every forbidden import', () => {
    for (const [i, result] of results.slice(0, forbidden.length).entries()) {
      expect({ ...forbidden[i], rules: [...new Set(result.rules)] }).toEqual({
        ...forbidden[i],
        rules: [rule],
      });
    }
    const messages = results.map((result) => result.messages);
    expect(messages[0]).toContain(
      'apps/web (platform:browser) may import only projects tagged platform:any or platform:browser; libs/server is tagged',
    );
    expect(messages[1]).toContain('apps/web (platform:browser) may not import node:fs/promises');
    expect(messages[3]).toContain('apps/web (type:app) may import only projects tagged type:lib; apps/api');
    expect(messages[4]).toContain('libs/logic (platform:any) may import only projects tagged platform:any');
    expect(messages[7]).toContain(
      'apps/api (platform:node) may import only projects tagged platform:node or platform:any',
    );
  });

  it('passes what the tags allow, type-only imports, and tests using tooling and Node', () => {
    for (const [i, result] of results.slice(forbidden.length).entries()) {
      expect({ ...allowed[i], rules: result.rules, messages: result.messages }).toEqual({
        ...allowed[i],
        rules: [],
        messages: '',
      });
    }
  });
});
