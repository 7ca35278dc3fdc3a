import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The build's output folder (tools/build/output-folder.mjs, an ES module the
// build scripts import), run as they run it: a file replaced keeps its place
// until the new one is whole, what the build no longer makes goes at the end,
// and a folder another step writes (a bundle) is left alone.
describe('OutputFolder', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'output-folder-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const build = (steps: string) =>
    execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      `import { OutputFolder } from ${JSON.stringify(path.join(__dirname, 'output-folder.mjs'))};
       const dir = ${JSON.stringify(dir)};
       ${steps}`,
    ]);

  it('replaces files in place, removes what it no longer makes, and leaves a bundle folder alone', () => {
    mkdirSync(path.join(dir, 'app/src/old'), { recursive: true });
    mkdirSync(path.join(dir, 'web'), { recursive: true });
    writeFileSync(path.join(dir, 'app/src/main.js'), 'old');
    writeFileSync(path.join(dir, 'app/src/old/gone.js'), 'stale');
    writeFileSync(path.join(dir, 'app/src/main.js.123.tmp'), 'a killed build');
    writeFileSync(path.join(dir, 'web/page.js'), 'bundle');
    build(`const out = new OutputFolder([dir], [dir + '/web']);
       out.write(dir + '/app/src/main.js', 'new');
       out.write(dir + '/app/src/more/added.js', 'added');
       out.removeTheRest();`);
    expect(readFileSync(path.join(dir, 'app/src/main.js'), 'utf8')).toBe('new');
    expect(readFileSync(path.join(dir, 'app/src/more/added.js'), 'utf8')).toBe('added');
    expect(existsSync(path.join(dir, 'app/src/old'))).toBe(false);
    expect(readdirSync(path.join(dir, 'app/src')).sort()).toEqual(['main.js', 'more']);
    expect(readFileSync(path.join(dir, 'web/page.js'), 'utf8')).toBe('bundle');
  });
});
