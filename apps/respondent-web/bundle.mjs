#!/usr/bin/env node
// The respondent page's browser files, into dist/apps/respondent-web/: the
// script (src/respondent-page.main.ts and what it imports, libs included,
// bundled and minified by esbuild for the browsers of the last years) and the
// page's icon, each named after its content, and assets.json naming them for
// the gateway that serves them. Only the project's own code and the
// workspace's libraries go in: an npm package or a Node built-in is refused.
// tools/build.mjs runs this as the project's `bundle` target.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const project = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(project, '../..');
const outDir = path.join(root, 'dist/apps/respondent-web');

const workspaceOnly = {
  name: 'workspace-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@formline/')
        ? undefined
        : { errors: [{ text: `${args.path} cannot go into the browser's bundle (workspace code only)` }] },
    );
  },
};

const started = Date.now();
const result = await build({
  entryPoints: [path.join(project, 'src/respondent-page.main.ts')],
  bundle: true,
  write: false,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022'],
  tsconfig: path.join(project, 'tsconfig.json'),
  plugins: [workspaceOnly],
  logLevel: 'warning',
});
const hashed = (name, ext, body) =>
  `${name}.${createHash('sha256').update(body).digest('hex').slice(0, 16)}${ext}`;
const script = result.outputFiles[0].contents;
const icon = readFileSync(path.join(project, 'src/favicon.svg'));
const assets = { script: hashed('respondent-page', '.js', script), icon: hashed('favicon', '.svg', icon) };
// Replaced in place, never emptied first: each file renamed into its place
// once whole, assets.json (naming the others) last, the old files after it,
// so a gateway starting meanwhile finds the files its assets.json names.
const files = { [assets.script]: script, [assets.icon]: icon };
files['assets.json'] = `${JSON.stringify(assets, null, 2)}\n`;
mkdirSync(outDir, { recursive: true });
for (const [name, body] of Object.entries(files)) {
  const temporary = path.join(outDir, `${name}.${process.pid}.tmp`);
  writeFileSync(temporary, body);
  renameSync(temporary, path.join(outDir, name));
}
for (const name of readdirSync(outDir)) {
  if (!Object.hasOwn(files, name)) rmSync(path.join(outDir, name), { recursive: true, force: true });
}
console.log(`bundled ${assets.script} (${script.length} bytes) in ${Date.now() - started} ms`);
