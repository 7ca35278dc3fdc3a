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
