import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// Code and the README say what is, not which ticket brought it: an issue
// number means nothing to a reader of the code and goes stale with the
// tracker. Commit messages and docs/decisions.md are where history lives.
describe('code, scripts and the README', () => {
  it('cite no issue numbers', () => {
    const files = execFileSync(
      'git',
      [
        'ls-files',
        '--cached',
        '--others',
        '--exclude-standard',
        'apps',
        'libs',
        'tools',
        'test',
        'deploy',
        'bench',
        'scripts',
        'prisma',
        'README.md',
      ],
      { cwd: root, encoding: 'utf8' },
    )
      .split('\n')
      .filter(
        (file) =>
          /\.(ts|mjs|cjs|js|sh|ya?ml|prisma|md)$/.test(file) && file !== 'tools/no-issue-numbers.spec.ts',
      );
    const citing = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\bissues? #?\d+\b/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(citing).toEqual([]);
  });
});
