#!/usr/bin/env node
// The console's browser files, into dist/apps/console/: the script
// (src/console.main.tsx and what it imports: the project's code, Preact and
// the workspace's libraries, bundled and minified by esbuild), the style sheet
// and the icon, each named after its content, the page (index.html) that
// names them, and assets.json listing them for the gateway that serves them.
// No other npm package and no Node built-in goes in. tools/build.mjs runs this
// as the project's `bundle` target.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleBrowserScript, contentNamed, writeBrowserFiles } from '../../tools/build/browser-bundle.mjs';

const project = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(project, '../../dist/apps/console');
// What the console may download before its first screen, compressed (the
// page, the script, the style and the icon): a build over it fails.
const initialBudgetBytes = 250 * 1024;

const started = Date.now();
const script = await bundleBrowserScript({
  project,
  entry: 'src/console.main.tsx',
  label: "the console's bundle",
  packages: ['preact', 'preact/hooks', 'preact/jsx-runtime'],
  esbuildOptions: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
});
const style = readFileSync(path.join(project, 'src/console.css'));
const icon = readFileSync(path.join(project, 'src/favicon.svg'));
const assets = {
  script: contentNamed('console', '.js', script),
  style: contentNamed('console', '.css', style),
  icon: contentNamed('favicon', '.svg', icon),
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
writeBrowserFiles(outDir, files, assets);
console.log(
  `bundled ${assets.script} (${script.length} bytes; the first screen's files ${initialBytes} bytes compressed) in ${Date.now() - started} ms`,
);
