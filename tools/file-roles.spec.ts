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
      /\.tsx?$/.test(file) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(file) && !file.includes('/generated/'),
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

  // The respondent page's browser code (apps/respondent-web) was one file of
  // 1,300 lines; now each file is one concept, its role in its name, and small.
  it('names each file of the browser app <thing>.<role>.ts by a known role, none over 500 lines', () => {
    const roles = [
      'main', // the bundle's entry: the page started in the document
      'app', // the page object, owner of the page's state
      'session', // the respondent's way through the form
      'store', // what is kept in the browser's storage
      'screen', // one screen: welcome, question, submission, ending
      'control', // one kind of question's input and how to read its answer
      'view', // a piece of a screen that reads nothing back
      'factory', // which control a question takes
      'builder', // elements from text nodes
      'format', // texts with their values put in
      'check', // a rule checked in the browser
      'mapper', // one shape into another
      'rules', // pure decisions (where media go)
      'sender', // what goes to the service on the side (partial responses)
      'context', // the shapes screens and controls share
      'fixture', // specs' helpers
    ];
    const browserFiles = sources.filter(({ file }) => file.startsWith('apps/respondent-web/src/'));
    expect(browserFiles.length).toBeGreaterThan(20);
    const misnamed = browserFiles
      .map(({ file }) => path.basename(file))
      .filter((name) => !roles.includes(/^[a-z-]+\.([a-z-]+)\.ts$/.exec(name)?.[1] ?? ''));
    const long = browserFiles.filter(({ text }) => text.split('\n').length > 500).map(({ file }) => file);
    expect({ misnamed, long }).toEqual({ misnamed: [], long: [] });
  });

  // The console (apps/console): Preact components in .tsx, the rest in .ts.
  it('names each file of the console <thing>.<role>.ts(x) by a known role, none over 500 lines', () => {
    const roles = [
      'main', // the bundle's entry: the console started in its page
      'app', // the console's state: signed out, signed in
      'screen', // one screen: sign-in, forms, webhooks, a delivery log
      'view', // a piece of a screen
      'flow', // signing in and out (OAuth with PKCE)
      'client', // the API, over HTTP
      'store', // what is kept in the tab's storage
      'crypto', // PKCE's random values and hashes
      'settings', // the console as an OAuth client
      'route', // where the console is, in the address's fragment
      'mapper', // one shape into another (an editor's fields into a request body)
      'format', // the API's records in words
    ];
    const consoleFiles = sources.filter(({ file }) => file.startsWith('apps/console/src/'));
    expect(consoleFiles.length).toBeGreaterThan(10);
    const misnamed = consoleFiles
      .map(({ file }) => path.basename(file))
      .filter((name) => !roles.includes(/^[a-z-]+\.([a-z-]+)\.tsx?$/.exec(name)?.[1] ?? ''));
    const long = consoleFiles.filter(({ text }) => text.split('\n').length > 500).map(({ file }) => file);
    expect({ misnamed, long }).toEqual({ misnamed: [], long: [] });
  });
});
