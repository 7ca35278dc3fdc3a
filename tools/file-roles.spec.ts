import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

// The source files of apps/ and libs/ (specs aside: they declare test doubles
// and set up the rows they test).
const sources = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', 'apps', 'libs'],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter(
    (file) =>
      file.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(file) && !file.includes('/generated/'),
  )
  .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

// One name per role: a file's name says whether it serves HTTP or NATS, and
// which classes may touch the database's tables.
describe('file roles', () => {
  it('puts NATS handlers in *.handler.ts and HTTP routes in *.controller.ts', () => {
    const misplaced = sources.flatMap(({ file, text }) => [
      ...(/@(MessagePattern|EventPattern)\(/.test(text) && !file.endsWith('.handler.ts')
        ? [`${file}: NATS handlers belong in a *.handler.ts`]
        : []),
      ...(/@(Get|Post|Put|Patch|Delete|Head|Options|All)\(/.test(text) && !file.endsWith('.controller.ts')
        ? [`${file}: HTTP routes belong in a *.controller.ts`]
        : []),
    ]);
    expect(misplaced).toEqual([]);
  });

  it('reaches every table of the apps through a repository', () => {
    const models = ['global', 'responses', 'webhooks'].flatMap((db) =>
      [
        ...readFileSync(path.join(root, 'prisma', db, 'schema.prisma'), 'utf8').matchAll(/^model (\w+)/gm),
      ].map(([, model]) => model[0].toLowerCase() + model.slice(1)),
    );
    const tableCall = new RegExp(`\\.(${models.join('|')})\\.[a-zA-Z]+\\(`);
    const rawSql = /\.\$(queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe|transaction)\b(?!`SELECT 1`)/;
    const direct = sources
      .filter(({ file }) => file.startsWith('apps/') && !file.endsWith('.repository.ts'))
      .filter(({ text }) => tableCall.test(text) || rawSql.test(text))
      .map(({ file }) => file);
    expect(direct).toEqual([]);
  });
});
