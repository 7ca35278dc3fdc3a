import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// Code and the docs say what is, not which ticket brought it: an issue
// number means nothing to a reader of the code and goes stale with the
// tracker. The decisions (docs/decisions/) state what holds now; commit
// messages are where history lives.
describe('code, scripts and the docs', () => {
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
        'docs',
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
