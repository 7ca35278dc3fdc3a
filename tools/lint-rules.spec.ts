import { spawnSync } from 'node:child_process';
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
function lintMany(
  snippets: { file: string; code: string }[],
): { file: string; rules: string[]; messages: string }[] {
  const script = `
    import { ESLint } from 'eslint';
    const snippets = JSON.parse(await new Promise((done) => {
      let text = '';
      process.stdin.on('data', (chunk) => (text += chunk)).on('end', () => done(text));
    }));
    const eslint = new ESLint({ cwd: process.cwd() });
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
      code: "export { FormService } from '../../forms/src/form.service';",
    },
    { file: 'apps/dispatcher/src/probe.cjs', code: "require('../../webhooks/src/main');" },
    // tools, deploy checks and bench scripts importing an app
    { file: 'tools/docs/probe.mjs', code: "export { x } from '../../apps/gateway/src/gateway.config';" },
    { file: 'deploy/checks/probe.mjs', code: "export { x } from '../../apps/forms/src/forms.config';" },
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
    file: 'apps/forms/src/probe.mjs',
    code: "export { loadConfig } from '../../../libs/config/src';",
  };
  const allowed = [
    {
      file: 'apps/gateway/src/probe.mjs',
      code: "export { loadConfig } from '@formline/config';\nexport { x } from './gateway.config';",
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
      expect(result).toMatchObject({ rules: [rule] });
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
