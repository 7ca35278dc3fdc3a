#!/usr/bin/env node
// Compiles apps/, libs/, tools/ and bench/ TypeScript to dist/ with swc: one file in,
// one file out, same tree, path aliases rewritten to relative requires, then
// bundles each Node app built into one file (build/node-app-bundle.mjs). Takes
// seconds, so the test harness and `npm start` always run fresh code.
// Type-checking is separate (`tsc --noEmit`), as swc does not check types.
// A project that is not Node code (apps/respondent-web, the respondent page's
// browser script) is not compiled file by file: its project.json names a
// `bundle` target, whose command this runs in its place.
//
//   node tools/build.mjs                         everything, replacing dist/
//   node tools/build.mjs libs/config apps/global  these folders only, replacing
//                                                just their part of dist/ (the
//                                                build target of each Nx project)
//
// dist/ is replaced file by file, never emptied first (build/output-folder.mjs):
// an app starting from it while a build runs finds every file it needs.
import { execSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';
import { bundleNodeApp } from './build/node-app-bundle.mjs';
import { OutputFolder } from './build/output-folder.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist');
// bench/ holds scripts run by hand (never by the apps), built alongside.
const sourceDirs = ['apps', 'libs', 'tools', 'bench'];
const { compilerOptions } = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));

// The command of the project's own `bundle` target, if the folder is a project that has one.
function bundleCommand(dir) {
  const file = path.join(dir, 'project.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).targets?.bundle?.command : undefined;
}

const bundles = [];
const bundleDirs = [];
const dataFiles = [];

function* typescriptFiles(dir) {
  const bundle = bundleCommand(dir);
  if (bundle) {
    bundles.push(bundle);
    bundleDirs.push(dir);
    return;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // tools/node-runtime/node_modules holds the pinned Node.js, no sources.
      if (entry.name !== 'node_modules') yield* typescriptFiles(full);
    } else if (/\.ts$/.test(entry.name) && !/\.(spec|int-spec|e2e-spec|d)\.ts$/.test(entry.name)) yield full;
    // Data the code imports (the respondent page's texts), beside it as it is.
    else if (entry.name.endsWith('.json') && full.split(path.sep).includes('src')) dataFiles.push(full);
  }
}

const swcOptions = (file) => ({
  filename: file,
  sourceMaps: true,
  module: { type: 'commonjs' },
  jsc: {
    target: 'es2023',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    baseUrl: root,
    paths: compilerOptions.paths,
    keepClassNames: true,
  },
});

const only = process.argv.slice(2).map((dir) => path.relative(root, path.resolve(root, dir)));
for (const dir of only) {
  if (!sourceDirs.includes(dir.split(path.sep)[0]) || !existsSync(path.join(root, dir))) {
    console.error(`build: ${dir} is not a folder under ${sourceDirs.join(', ')}`);
    process.exit(2);
  }
}
const dirs = only.length > 0 ? only : sourceDirs.filter((dir) => existsSync(path.join(root, dir)));
const started = Date.now();
const files = dirs.flatMap((dir) => [...typescriptFiles(path.join(root, dir))]);
// Each folder built is replaced in place (see OutputFolder); a bundle replaces its own.
const output = new OutputFolder(
  only.length > 0 ? only.map((dir) => path.join(outDir, dir)) : [outDir],
  bundleDirs.map((dir) => path.join(outDir, path.relative(root, dir))),
);
await Promise.all(
  files.map(async (file) => {
    const compiled = await transformFile(file, swcOptions(file));
    const target = path.join(outDir, path.relative(root, file)).replace(/\.ts$/, '.js');
    output.write(target, `${compiled.code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
    if (compiled.map) output.write(`${target}.map`, compiled.map);
  }),
);
for (const file of dataFiles) output.write(path.join(outDir, path.relative(root, file)), readFileSync(file));

// Each Node app as one file (build/node-app-bundle.mjs): every app in a
// whole build, and in a build of some folders the apps among them. A bundle
// holds its libraries' code, so an app is built after them (Nx's build target
// depends on its projects' builds, ^build); a build of libraries alone
// leaves the bundles as they were.
const builtApps = (app) => only.length === 0 || only.includes(path.join('apps', app));
const nodeApps = readdirSync(path.join(root, 'apps')).filter(
  (app) =>
    builtApps(app) &&
    existsSync(path.join(root, 'apps', app, 'src', 'main.ts')) &&
    !bundleCommand(path.join(root, 'apps', app)) &&
    existsSync(path.join(outDir, 'apps', app, 'src', 'main.js')),
);
const appBundles = await Promise.all(nodeApps.map((app) => bundleNodeApp(path.join(outDir, 'apps', app))));
for (const file of appBundles.flat()) output.write(file.path, file.contents);
output.removeTheRest();
console.log(
  `built ${files.length} files and ${appBundles.length} app bundles into dist/ in ${Date.now() - started} ms`,
);

for (const command of bundles) execSync(command, { cwd: root, stdio: 'inherit' });
