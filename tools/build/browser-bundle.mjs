// What building a browser app's files takes, for each app's bundle.mjs (the
// respondent page's script, the console): its script bundled and minified by
// esbuild for the browsers of the last years, with only the imports it allows
// (the workspace's libraries, and the npm packages it names; never a Node
// built-in); each file named after its content, so browsers and proxies may
// keep it for a year; and the folder replaced file by file
// (output-folder.mjs), assets.json (naming the files by their role) written
// last, so a gateway starting meanwhile finds the files its assets.json names.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { build } from 'esbuild';
import { OutputFolder } from './output-folder.mjs';

// `name.<16 hex digits of its SHA-256>.ext`.
export function contentNamed(name, ext, body) {
  return `${name}.${createHash('sha256').update(body).digest('hex').slice(0, 16)}${ext}`;
}

// The bundled, minified script of `entry` (the project's tsconfig.json beside
// it), refusing any bare import but the workspace's and `packages`.
export async function bundleBrowserScript({ project, entry, label, packages = [], esbuildOptions = {} }) {
  const allowedImports = {
    name: 'allowed-imports',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@formline/') || packages.includes(args.path)
          ? undefined
          : { errors: [{ text: `${args.path} cannot go into ${label}` }] },
      );
    },
  };
  const result = await build({
    entryPoints: [path.join(project, entry)],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    tsconfig: path.join(project, 'tsconfig.json'),
    plugins: [allowedImports],
    logLevel: 'warning',
    ...esbuildOptions,
  });
  return result.outputFiles[0].contents;
}

// `files` (name → body) into `outDir`, then assets.json naming `assets`
// (role → file name), then away with what the last build left.
export function writeBrowserFiles(outDir, files, assets) {
  const folder = new OutputFolder([outDir]);
  for (const [name, body] of Object.entries(files)) folder.write(path.join(outDir, name), body);
  folder.write(path.join(outDir, 'assets.json'), `${JSON.stringify(assets, null, 2)}\n`);
  folder.removeTheRest();
}
