import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const maxLines = 500;

// Files a reader can hold in mind: past a few hundred lines a file has become
// several concepts, and is split where they part. Tests are exempt (a spec
// lists its cases), and so is generated code (Prisma's clients).
describe('source files', () => {
  it(`hold at most ${maxLines} lines`, () => {
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
        'bench',
        'scripts',
        'deploy',
      ],
      { cwd: root, encoding: 'utf8' },
    )
      .split('\n')
      .filter((file) => /\.(ts|tsx|mjs|cjs|js|sh)$/.test(file))
      .filter(
        (file) => !/\.(spec|int-spec|e2e-spec|images-spec)\.ts$/.test(file) && !file.includes('/generated/'),
      );
    const long = files
      .map((file) => ({ file, lines: readFileSync(path.join(root, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > maxLines)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
