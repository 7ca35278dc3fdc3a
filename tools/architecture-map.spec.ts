import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { QueueName, Streams, Subjects } from '@formline/contracts';

const root = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

// The map in docs/architecture.md ("The map") is only worth reading if it is
// whole and true: every app, library, stream, subject family, announcement,
// queue, database, table and scope the code has is named there, and nothing
// it names is gone from the code. The convention the map follows is written
// at the top of its section.

// --- What the map names --------------------------------------------------

const mapHeading = '## The map';

// A table row, as the backticked names of each of its cells.
type Row = string[][];

// The body rows of each `###` table of the map section, by the table's
// heading, each row as its cells' backticked names. A table's body is what
// follows its separator row (`| --- | --- |`), so its header names nothing.
function mapTables(): Map<string, Row[]> {
  const lines = read('docs/architecture.md').split('\n');
  const start = lines.indexOf(mapHeading);
  if (start < 0) throw new Error(`docs/architecture.md has no "${mapHeading}" section`);
  const tables = new Map<string, Row[]>();
  let rows: Row[] = [];
  let inBody = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (line.startsWith('### ')) tables.set(line.slice(4).trim(), (rows = []));
    const isRow = line.startsWith('|');
    const isSeparator = isRow && !/[^\s|:-]/.test(line);
    if (isRow && inBody) rows.push(line.split('|').slice(1, -1).map(backticked));
    inBody = isSeparator || (isRow && inBody);
  }
  return tables;
}

function backticked(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map(([, name]) => name);
}

const map = mapTables();

function rowsOf(table: string): Row[] {
  const rows = map.get(table);
  if (!rows) throw new Error(`the map has no "### ${table}" table`);
  return rows;
}

// The names of a table's first column.
const namedIn = (table: string) => rowsOf(table).flatMap(([first = []]) => first);

// A table whose rows are "name | its members": the members named beside each name.
function membersIn(table: string): Map<string, string[]> {
  return new Map(rowsOf(table).flatMap(([names = [], members = []]) => names.map((name) => [name, members])));
}

// --- What the code has ---------------------------------------------------

// Every project.json of the repository (untracked ones too: a project just
// added counts before its first commit).
const projectFiles = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '*project.json'],
  { cwd: root, encoding: 'utf8' },
)
  .split('\n')
  .filter((file) => path.basename(file) === 'project.json' && existsSync(path.join(root, file)));

const projectsUnder = (kind: 'apps' | 'libs') =>
  projectFiles
    .filter((file) => file.split('/').length === 3 && file.startsWith(`${kind}/`))
    .map(path.dirname);

const scopeTags = projectFiles.flatMap((file) =>
  ((JSON.parse(read(file)) as { tags?: string[] }).tags ?? []).filter((tag) => tag.startsWith('scope:')),
);

// `<domain>.<entity>` of each `<domain>.<entity>.<action>.v<n>` subject.
const subjectFamilies = Object.values(Subjects).map((subject) => subject.split('.').slice(0, 2).join('.'));

// The subjects of change-announcements.ts, each named there as `subject: Subjects.<key>`.
const announcementSubjects = [
  ...read('libs/contracts/src/change-announcements.ts').matchAll(/subject: Subjects\.(\w+)/g),
].map(([, key]) => Subjects[key as keyof typeof Subjects]);

const databases = readdirSync(path.join(root, 'prisma'))
  .filter((name) => existsSync(path.join(root, 'prisma', name, 'schema.prisma')))
  .map((name) => `prisma/${name}`);

// A model's table: its @@map, or the model's own name without one. Enums
// (which may carry a @@map too) are not tables.
function tablesOf(database: string): string[] {
  const tables: string[] = [];
  let table: string | undefined;
  for (const line of read(`${database}/schema.prisma`).split('\n')) {
    const model = /^model (\w+) \{/.exec(line);
    if (model) table = model[1];
    else if (table !== undefined) {
      const mapped = /^\s*@@map\("([^"]+)"\)/.exec(line);
      if (mapped) table = mapped[1];
      else if (line.startsWith('}')) {
        tables.push(table);
        table = undefined;
      }
    }
  }
  return tables;
}

// --- The checks ----------------------------------------------------------

// Both ways: what the code has and the map does not name, what the map names
// and the code no longer has.
function compare(inCode: readonly string[], onMap: readonly string[]) {
  const code = new Set(inCode);
  const named = new Set(onMap);
  return {
    notOnTheMap: [...code].filter((name) => !named.has(name)).sort(),
    notInTheCode: [...named].filter((name) => !code.has(name)).sort(),
  };
}
const agree = { notOnTheMap: [], notInTheCode: [] };

describe('the map in docs/architecture.md', () => {
  it.each([
    ['Apps', () => projectsUnder('apps')],
    ['Libraries', () => projectsUnder('libs')],
    ['Streams', () => Object.values(Streams).map((stream) => stream.name)],
    ['Subject families', () => subjectFamilies],
    ['Announcements on core NATS', () => announcementSubjects],
    ['Queues', () => Object.values(QueueName)],
    ['Databases', () => databases],
    ['Scopes', () => scopeTags],
  ])('%s: names each one the code has, and none it has not', (table, inCode) => {
    expect({ table, ...compare(inCode(), namedIn(table)) }).toEqual({ table, ...agree });
  });

  it('names the event subjects of each stream', () => {
    const onMap = membersIn('Streams');
    const streams = Object.values(Streams);
    expect(
      streams.map(({ name, subjects }) => ({ stream: name, ...compare(subjects, onMap.get(name) ?? []) })),
    ).toEqual(streams.map(({ name }) => ({ stream: name, ...agree })));
  });

  it('names every table of each database', () => {
    const onMap = membersIn('Databases');
    expect(
      databases.map((database) => ({ database, ...compare(tablesOf(database), onMap.get(database) ?? []) })),
    ).toEqual(databases.map((database) => ({ database, ...agree })));
  });
});
