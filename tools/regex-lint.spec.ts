import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// Lints a snippet with the project's own ESLint configuration, as `npm test` does.
function lint(code: string): { status: number | null; output: string } {
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/eslint'),
    ['--stdin', '--stdin-filename', 'tools/regex-probe.mjs'],
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
