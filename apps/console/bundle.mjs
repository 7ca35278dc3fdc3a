#!/usr/bin/env node
// The console's browser files, into dist/apps/console/: the script
// (src/console.main.tsx and what it imports: the project's code, Preact and
// the workspace's libraries, bundled and minified by esbuild), the style sheet
// and the icon, each named after its content, the page (index.html) that
// names them, and assets.json listing them for the gateway that serves them.
// No other npm package and no Node built-in goes in. tools/build.mjs runs this
// as the project's `bundle` target.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const project = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(project, '../..');
const outDir = path.join(root, 'dist/apps/console');
// What the console may download before its first screen, compressed (the
// page, the script, the style and the icon): a build over it fails.
const initialBudgetBytes = 250 * 1024;

const allowedPackages = ['preact', 'preact/hooks', 'preact/jsx-runtime'];
const workspaceAndPreactOnly = {
  name: 'workspace-and-preact-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@formline/') || allowedPackages.includes(args.path)
        ? undefined
        : { errors: [{ text: `${args.path} cannot go into the console's bundle` }] },
    );
  },
};

const started = Date.now();
const result = await build({
  entryPoints: [path.join(project, 'src/console.main.tsx')],
  bundle: true,
  write: false,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: path.join(project, 'tsconfig.json'),
  plugins: [workspaceAndPreactOnly],
  legalComments: 'none',
  logLevel: 'warning',
});
const hashed = (name, ext, body) =>
  `${name}.${createHash('sha256').update(body).digest('hex').slice(0, 16)}${ext}`;
const script = result.outputFiles[0].contents;
const style = readFileSync(path.join(project, 'src/console.css'));
const icon = readFileSync(path.join(project, 'src/favicon.svg'));
const assets = {
  script: hashed('console', '.js', script),
  style: hashed('console', '.css', style),
  icon: hashed('favicon', '.svg', icon),
};
// The page is the same for every visitor: it holds no data, the script signs in.
const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Formline console</title>
<link rel="icon" href="/console/assets/${assets.icon}" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/${assets.style}">
<script defer src="/console/assets/${assets.script}"></script>
</head>
<body>
<div id="console"><p class="starting">Loading the console…</p></div>
<noscript><p>The console needs JavaScript.</p></noscript>
</body>
</html>
`;
const files = { [assets.script]: script, [assets.style]: style, [assets.icon]: icon, 'index.html': page };
const initialBytes = Object.values(files).reduce((sum, body) => sum + gzipSync(body).length, 0);
if (initialBytes > initialBudgetBytes) {
  console.error(`console: ${initialBytes} bytes compressed, over the budget of ${initialBudgetBytes}`);
  process.exit(1);
}
// Replaced in place, never emptied first: each file renamed into its place
// once whole, assets.json (naming the others) last, the old files after it,
// so a gateway starting meanwhile finds the files its assets.json names.
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
console.log(
  `bundled ${assets.script} (${script.length} bytes; the first screen's files ${initialBytes} bytes compressed) in ${Date.now() - started} ms`,
);
