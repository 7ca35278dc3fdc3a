import { readFileSync } from 'node:fs';
import path from 'node:path';

// Each database's client is generated with Prisma's query compiler built for
// size (docs/node.md, "Memory"): the default build holds about 10 MB more in
// every app that talks to a database, which took them to the memory bound at rest.
const root = path.resolve(__dirname, '../../..');
const databases = ['global', 'responses', 'webhooks'];

describe('the query compiler each generated client loads', () => {
  it.each(databases)('%s: the schema asks for the build made for size', (db) => {
    const schema = readFileSync(path.join(root, `prisma/${db}/schema.prisma`), 'utf8');
    const generator = /generator client \{([^}]*)\}/.exec(schema)?.[1] ?? '';
    const settings = generator.split('\n').map((line) => line.trim().replaceAll(' ', ''));
    expect(settings).toContain('compilerBuild="small"');
  });

  it.each(databases)('%s: the generated client loads that build', (db) => {
    const client = readFileSync(path.join(__dirname, `generated/${db}/internal/class.ts`), 'utf8');
    expect(client).toContain('query_compiler_small_bg.postgresql.wasm-base64.js');
    expect(client).not.toContain('query_compiler_fast_bg');
  });

  it('the app image keeps that build when it prunes the others', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain("! -name 'query_compiler_small_bg.postgresql.*' -delete");
  });
});
