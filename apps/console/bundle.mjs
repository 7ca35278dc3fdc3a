#!/usr/bin/env node
// The console's browser files, into dist/apps/console/: the script
// (src/console.main.tsx and what it imports: the project's code, Preact and
// the workspace's libraries, bundled and minified by esbuild), the style sheet
// and the icon, each named after its content, the page (index.html) that
// names them, and assets.json listing them for the gateway that serves them;
// and each language's texts (src/texts/<code>.json, English aside, which is
// in the script) as a file of its own, named after its content, downloaded
// only by a console that speaks it. A language whose texts lack a key of
// English's, or have one it lacks, is left out (the console is English for it).
// No other npm package and no Node built-in goes in. tools/build.mjs runs this
// as the project's `bundle` target.
import { Buffer } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
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
const textsDir = path.join(project, 'src/texts');
const englishKeys = Object.keys(JSON.parse(readFileSync(path.join(textsDir, 'en.json'), 'utf8'))).sort();
const texts = {};
for (const file of readdirSync(textsDir).filter(
  (name) => /^[a-z]{2}\.json$/.test(name) && name !== 'en.json',
)) {
  const code = file.slice(0, 2);
  const catalog = JSON.parse(readFileSync(path.join(textsDir, file), 'utf8'));
  if (JSON.stringify(Object.keys(catalog).sort()) !== JSON.stringify(englishKeys)) {
    console.warn(`console: the texts in ${file} are not complete; the console stays English in it`);
    continue;
  }
  const body = Buffer.from(JSON.stringify(catalog));
  texts[`texts-${code}`] = { name: contentNamed(`texts-${code}`, '.json', body), body, code };
}
const script = await bundleBrowserScript({
  project,
  entry: 'src/console.main.tsx',
  label: "the console's bundle",
  packages: ['preact', 'preact/hooks', 'preact/jsx-runtime'],
  esbuildOptions: {
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    define: {
      CONSOLE_TEXT_FILES: JSON.stringify(
        Object.fromEntries(Object.values(texts).map((t) => [t.code, t.name])),
      ),
    },
  },
});
const style = readFileSync(path.join(project, 'src/console.css'));
const icon = readFileSync(path.join(project, 'src/favicon.svg'));
const assets = {
  script: contentNamed('console', '.js', script),
  style: contentNamed('console', '.css', style),
  icon: contentNamed('favicon', '.svg', icon),
  ...Object.fromEntries(Object.entries(texts).map(([role, { name }]) => [role, name])),
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
// A console in another language than English downloads its texts before its
// first screen: the largest of them counts.
const largestTexts = Math.max(0, ...Object.values(texts).map(({ body }) => gzipSync(body).length));
const initialBytes = Object.values(files).reduce((sum, body) => sum + gzipSync(body).length, largestTexts);
if (initialBytes > initialBudgetBytes) {
  console.error(`console: ${initialBytes} bytes compressed, over the budget of ${initialBudgetBytes}`);
  process.exit(1);
}
for (const { name, body } of Object.values(texts)) files[name] = body;
writeBrowserFiles(outDir, files, assets);
console.log(
  `bundled ${assets.script} (${script.length} bytes; the first screen's files ${initialBytes} bytes compressed; texts in en${Object.values(
    texts,
  )
    .map(({ code }) => `, ${code}`)
    .join('')}) in ${Date.now() - started} ms`,
);
