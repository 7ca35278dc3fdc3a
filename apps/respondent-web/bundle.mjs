#!/usr/bin/env node
// The respondent page's browser files, into dist/apps/respondent-web/: the
// script (src/respondent-page.main.ts and what it imports, libs included) and
// the page's icon, each named after its content, and assets.json naming them
// for the gateway that serves them. Only the project's own code and the
// workspace's libraries go in: an npm package or a Node built-in is refused.
// tools/build.mjs runs this as the project's `bundle` target.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBrowserScript, contentNamed, writeBrowserFiles } from '../../tools/build/browser-bundle.mjs';

const project = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(project, '../../dist/apps/respondent-web');

const started = Date.now();
const script = await bundleBrowserScript({
  project,
  entry: 'src/respondent-page.main.ts',
  label: "the browser's bundle (workspace code only)",
});
const icon = readFileSync(path.join(project, 'src/favicon.svg'));
const assets = {
  script: contentNamed('respondent-page', '.js', script),
  icon: contentNamed('favicon', '.svg', icon),
};
writeBrowserFiles(outDir, { [assets.script]: script, [assets.icon]: icon }, assets);
console.log(`bundled ${assets.script} (${script.length} bytes) in ${Date.now() - started} ms`);
