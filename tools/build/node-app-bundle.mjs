// Each Node app (gateway, forms, responses, webhooks, dispatcher, media) as
// one file, dist/apps/<app>/main.js, which is what every app process runs
// (libs/stack's appEntry, the image's entrypoint). Much of an app's start was
// Node finding, reading and compiling about 800 CommonJS modules one by one;
// one file of the same code starts on about a third less CPU, and holds
// about 8 MB more at rest (docs/node.md, "One file per app").
//
// esbuild bundles what swc compiled (dist/apps/<app>/src/main.js and the
// libraries it requires), not the TypeScript: Nest's dependency injection
// reads the parameter types swc records as decorator metadata, which esbuild
// does not write. The bundle's source map goes through swc's maps back to the
// TypeScript, so stack traces still name .ts lines; it maps the repository's
// code only (source-map-of-own-code.mjs says why).
import path from 'node:path';
import { build } from 'esbuild';
import { sourceMapOfOwnCode } from './source-map-of-own-code.mjs';

// Packages a bundle leaves to node_modules, required at run time as before:
// native code (sharp's image library; msgpackr's optional native extension,
// which BullMQ's msgpackr tries and does without), and what Nest requires
// only when a transport or feature nobody here asks for is used (each such
// require sits in Nest's loadPackage, which names the package to install if
// it is ever asked for; none is installed). A package missing from this list
// and from node_modules fails the build, by name.
export const leftToNodeModules = [
  'sharp',
  'msgpackr-extract',
  '@nestjs/platform-express',
  '@nestjs/websockets',
  '@nestjs/websockets/*',
  '@grpc/*',
  '@fastify/multipart',
  '@fastify/static',
  '@fastify/view',
  'amqp-connection-manager',
  'amqplib',
  'class-transformer',
  'class-validator',
  'kafkajs',
  'mqtt',
];

/** The bundle of the compiled app in `appDir` (dist/apps/<app>): its files by name. */
export async function bundleNodeApp(appDir) {
  const outfile = path.join(appDir, 'main.js');
  const result = await build({
    entryPoints: [path.join(appDir, 'src', 'main.js')],
    outfile,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    // Class names as written: Nest's logs and errors name providers by them.
    keepNames: true,
    // The whole bundle's text stays in memory; without spaces and comments it
    // is 5 MB instead of 8 (identifiers kept, for stack traces and names).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    // The map says where each line came from; the sources are in the repository.
    sourcesContent: false,
    external: leftToNodeModules,
    logLevel: 'error',
  });
  return result.outputFiles.map((file) =>
    file.path.endsWith('.map')
      ? { path: file.path, contents: JSON.stringify(sourceMapOfOwnCode(JSON.parse(file.text))) }
      : { path: file.path, contents: file.contents },
  );
}
