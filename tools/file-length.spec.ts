import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const maxLines = 500;
const maxTestLines = 800;

// The files of the repository under `paths` (all of it when none), tracked or
// new, and still there.
const repositoryFiles = (...paths: string[]) =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...paths], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '' && existsSync(path.join(root, file)));

// Counted as `wc -l` counts them: a last line ended by a newline is one line.
const lineCount = (file: string) => {
  const text = readFileSync(path.join(root, file), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
};

const tooLong = (files: string[], limit: number) =>
  files
    .map((file) => ({ file, lines: lineCount(file) }))
    .filter(({ lines }) => lines > limit)
    .map(({ file, lines }) => `${file}: ${lines} lines`);

// What the Jest projects run: unit, integration, e2e and images specs.
const testFile = /\.(spec|int-spec|e2e-spec|images-spec)\.ts$/;

// Files a reader can hold in mind: past a few hundred lines a file has become
// several concepts, and is split where they part. Tests have a limit of their
// own (below), and generated code (Prisma's clients) has none.
describe('source files', () => {
  it(`hold at most ${maxLines} lines`, () => {
    const files = repositoryFiles('apps', 'libs', 'tools', 'bench', 'scripts', 'deploy')
      .filter((file) => /\.(ts|tsx|mjs|cjs|js|sh)$/.test(file))
      .filter((file) => !testFile.test(file) && !file.includes('/generated/'));
    expect(tooLong(files, maxLines)).toEqual([]);
  });
});

// A test file is read whole when one of its tests fails: the failing case,
// its setup and the helpers it calls, to tell a broken product from a broken
// test. Past 800 lines they lie far apart and the file holds several concerns,
// each with setup the others do not need; it is split by concern, the shared
// setup in a helper module beside it or in libs/testing. A spec lists its
// cases, so its limit is above the source files'.
describe('test files', () => {
  it(`hold at most ${maxTestLines} lines`, () => {
    const files = repositoryFiles().filter((file) => testFile.test(file));
    expect(files.length).toBeGreaterThan(100);
    expect(tooLong(files, maxTestLines)).toEqual([]);
  });

  it('are named as every Jest project finds its tests', () => {
    // Each project's testMatch, as the configurations spell them.
    const patterns = ['jest.config.js', 'test/images/jest.config.js'].flatMap((config) =>
      [...readFileSync(path.join(root, config), 'utf8').matchAll(/testMatch: \[([^\]]*)\]/g)].flatMap(
        ([, list]) => [...list.matchAll(/'([^']+)'/g)].map(([, pattern]) => pattern),
      ),
    );
    expect(patterns.length).toBeGreaterThanOrEqual(5);
    expect(patterns.filter((pattern) => !testFile.test(pattern))).toEqual([]);
  });
});
