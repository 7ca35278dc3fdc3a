// Copies the packages some entry packages need at run time, and nothing else,
// from an installed node_modules to another folder, keeping each package at the
// path where it is installed (so Node resolves them there exactly as here):
//
//   node tools/image/copy-modules.mjs <to-dir> <package>...
//
// The migrate image needs Prisma's migration tooling, which the lockfile holds
// as development dependencies beside the test and build tools; copying the
// closure of those few packages from the build stage keeps the lockfile's
// versions without the rest (eslint, jest, nx, swc, TypeScript...).
// A package's run-time needs are its `dependencies`, `optionalDependencies`
// and required `peerDependencies`, each resolved as Node would: from the
// requiring package's folder up to the root.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [target, ...entries] = process.argv.slice(2);
if (!target || entries.length === 0) {
  console.error('usage: node tools/image/copy-modules.mjs <to-dir> <package>...');
  process.exit(2);
}
const root = process.cwd();

// The folder Node would load `name` from, when required from `fromDir`.
function resolvePackage(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

function runtimeNeeds(packageDir) {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const optionalPeers = manifest.peerDependenciesMeta ?? {};
  return {
    required: Object.keys(manifest.dependencies ?? {}),
    optional: [
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ],
  };
}

const found = new Set();
const queue = entries.map((name) => ({ name, fromDir: root, required: true }));
while (queue.length > 0) {
  const { name, fromDir, required } = queue.shift();
  const dir = resolvePackage(name, fromDir);
  if (!dir) {
    // An optional dependency for another platform is legitimately absent.
    if (required)
      throw new Error(`${name} (needed from ${path.relative(root, fromDir) || '.'}) is not installed`);
    continue;
  }
  if (found.has(dir)) continue;
  found.add(dir);
  const needs = runtimeNeeds(dir);
  for (const dependency of needs.required) queue.push({ name: dependency, fromDir: dir, required: true });
  for (const dependency of needs.optional) queue.push({ name: dependency, fromDir: dir, required: false });
}

// A nested package is copied with its parent's folder; copying it again is harmless.
for (const dir of [...found].sort()) {
  cpSync(dir, path.join(target, path.relative(root, dir)), { recursive: true, verbatimSymlinks: true });
}
console.log(`copied ${found.size} packages to ${target}`);
