// What each project may import, by the tags of its project.json (the scheme is
// in docs/architecture.md, "Project tags"). Given to the module boundary rule
// by eslint.config.mjs, and to the rule's spec with a workspace of its own.
import { builtinModules } from 'node:module';
import { findProjects } from './module-boundaries.rule.mjs';

// Kind: apps import only libs (never another app), libs only libs, tools and
// tests libs and tools. A test, or a project's build script, may also use the
// tools (`tests`: the build's shared steps, the seed, ...).
const kindConstraints = (tests) => [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', ...(tests ? ['type:tool'] : [])] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', ...(tests ? ['type:tool'] : [])] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
];

// Packages that exist only in Node: never in code that may run in a browser.
export const nodeOnlyImports = [
  'node:*',
  ...builtinModules,
  '@nestjs/*',
  '@prisma/*',
  '@aws-sdk/*',
  '@nats-io/transport-node',
  'pg',
  'ioredis',
  'bullmq',
  'pino',
  'prom-client',
  'sharp',
  'fastify',
  'rate-limiter-flexible',
];

// Platform: `platform:any` code runs in Node and in browsers, so it uses only
// `platform:any` projects and nothing Node-only; `platform:browser` may add
// browser projects; Node code may use Node and `platform:any` projects.
// Type-only imports are let through: they vanish in compilation.
const platformConstraints = [
  {
    sourceTag: 'platform:any',
    onlyDependOnLibsWithTags: ['platform:any'],
    bannedExternalImports: nodeOnlyImports,
    ignoreTypeImports: true,
  },
  {
    sourceTag: 'platform:browser',
    onlyDependOnLibsWithTags: ['platform:any', 'platform:browser'],
    bannedExternalImports: nodeOnlyImports,
    ignoreTypeImports: true,
  },
  { sourceTag: 'platform:node', onlyDependOnLibsWithTags: ['platform:node', 'platform:any'] },
];

// Scope: the projects of one service (`scope:global`, ...: every scope tag in
// the workspace but `scope:shared` and `scope:tooling`) use their own scope,
// `scope:shared`, and the scopes of the libraries that service shares with a
// few others (`sharedWith`); shared libs use only shared ones. `scope:tooling`
// (the admin, test and form fixture libraries, tools, bench, deploy checks,
// the test tiers) may use anything, and only tests and tooling reach it.
//
// A library takes its scope from who uses it (docs/decisions/code-structure.md,
// "Library scopes"): the scope of the one service that does, `scope:tooling`
// when only tests and tools do, a scope of its own when a few services share
// it (named below, with the scopes that may use it), and `scope:shared` when
// most services do.
const sharedScope = 'scope:shared';
const toolingScope = 'scope:tooling';
const sharedWith = {
  // The HTTP edge, for the apps that answer HTTP callers: the NATS services
  // decide nothing about access, limits or HTTP errors.
  'scope:http-edge': ['scope:gateway', 'scope:media'],
  // The respondent's page as the gateway writes it; the page's browser code
  // tests itself with the page's real texts.
  'scope:respondent-page': ['scope:gateway', 'scope:respondent'],
};
const sharedLibraryScopes = (scope) =>
  Object.keys(sharedWith).filter((libraryScope) => sharedWith[libraryScope].includes(scope));

// Tests run in Node under Jest whatever their project's platform, and set up
// what they test with the tooling libraries: for them (`tests`), no platform
// constraint, and every scope may also use `scope:tooling`.
export function depConstraints({ tests, workspaceRoot }) {
  const alsoAllowed = tests ? [toolingScope] : [];
  const serviceScopes = [...new Set(findProjects(workspaceRoot).flatMap((project) => project.tags))].filter(
    (tag) => tag.startsWith('scope:') && tag !== sharedScope && tag !== toolingScope,
  );
  const scopeConstraints = [
    { sourceTag: sharedScope, onlyDependOnLibsWithTags: [sharedScope, ...alsoAllowed] },
    ...serviceScopes.sort().map((scope) => ({
      sourceTag: scope,
      onlyDependOnLibsWithTags: [scope, sharedScope, ...sharedLibraryScopes(scope), ...alsoAllowed],
    })),
  ];
  return [...kindConstraints(tests), ...scopeConstraints, ...(tests ? [] : platformConstraints)];
}
