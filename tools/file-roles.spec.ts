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
      'flow', // a sequence of steps: signing in and out (OAuth with PKCE), saving a form
      'client', // the API, over HTTP
      'store', // what is kept in the tab's storage
      'crypto', // PKCE's random values and hashes
      'settings', // the console as an OAuth client
      'route', // where the console is, in the address's fragment
      'mapper', // one shape into another (an editor's fields into a request body)
      'format', // the API's records in words
      'texts', // the console's words in its language: the catalog, t()
      'language', // which language the console speaks
      'context', // what every component under the app reads (the texts)
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

// Background work has three kinds, each with one suffix and one runner
// (docs/architecture.md, "Background work"): a job on a BackgroundLoop, a
// consumer of a stream, a BullMQ queue worker. Each file of those kinds in an
// app is a row of that page's table, so the page cannot drift from the code.
describe('background work', () => {
  const appSources = sources.filter(({ file }) => file.startsWith('apps/'));
  const runners = /\bnew (BackgroundRounds|RetentionPruner|LeasedJobRunner|FormPurgeRunner)\b/;
  const streamConsumers = /\bnew DurableEventConsumer\b|\.consume\(|\.consumers\.get\(/;
  const queueWorkers = /\bcreate(Delivery|FirstAttempts)Worker\(|\bnew Worker\b/;
  const kinds = [
    { suffix: '.job.ts', does: runners, what: 'a job runs on a BackgroundLoop runner' },
    { suffix: '.consumer.ts', does: streamConsumers, what: 'a consumer takes a stream' },
    { suffix: '.worker.ts', does: queueWorkers, what: 'a worker takes a BullMQ queue' },
  ];

  it('puts each kind in a file of its suffix, and each such file does that kind of work', () => {
    const misplaced = appSources.flatMap(({ file, text }) =>
      kinds.flatMap(({ suffix, does, what }) => {
        if (does.test(text) && !file.endsWith(suffix)) return [`${file}: ${what}, in a *${suffix}`];
        if (file.endsWith(suffix) && !does.test(text))
          return [`${file}: *${suffix} is for work where ${what}`];
        return [];
      }),
    );
    expect(misplaced).toEqual([]);
  });

  it('names a job class after its file, started and stopped by the service', () => {
    const wrong = appSources
      .filter(({ file }) => file.endsWith('.job.ts'))
      .flatMap(({ file, text }) => {
        const what = path
          .basename(file, '.job.ts')
          .split(/[-.]/)
          .map((word) => word[0].toUpperCase() + word.slice(1))
          .join('');
        return [
          ...(text.includes(`export class ${what}Job `) ? [] : [`${file}: exports no class ${what}Job`]),
          ...(/onApplicationBootstrap\(/.test(text) && /onApplicationShutdown\(/.test(text)
            ? []
            : [`${file}: starts or stops outside Nest's hooks`]),
        ];
      });
    expect(wrong).toEqual([]);
  });

  it('keeps the runners in libs/db/src/background, and retired suffixes out', () => {
    const stray = sources
      .filter(
        ({ file, text }) =>
          (/extends BackgroundLoop\b/.test(text) && !file.startsWith('libs/db/src/background/')) ||
          /\.(relay|retention|runner|poller|loop)\.ts$/.test(file),
      )
      .map(({ file }) => file)
      .filter((file) => !file.startsWith('libs/db/src/background/'));
    expect(stray).toEqual([]);
  });

  it('names every job, consumer and queue worker of the apps in the architecture page', () => {
    const page = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
    const section = page.slice(page.indexOf('## Background work'), page.indexOf('## The map'));
    const unnamed = appSources
      .map(({ file }) => file)
      .filter((file) => kinds.some(({ suffix }) => file.endsWith(suffix)))
      .filter((file) => !section.includes(`\`${file.split('/src/')[1]}\``));
    expect(unnamed).toEqual([]);
  });
});
