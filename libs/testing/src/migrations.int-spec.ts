import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { databaseUrl, testInfra } from './test-infra';
import pg from 'pg';

// What production runs is the migrations (tools/db/prisma-migrate.cjs, a
// Kubernetes Job per deploy); what the apps' clients are generated from is
// schema.prisma. A change to one without the other would pass every other
// test that never touches it (an index, a default, a constraint), and break
// or slow production. And a migration that rewrites rows is tested on rows.

const root = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

// The test profile's databases, each copied from its migrated template.
const migratedDatabases = {
  global: 'formline_global',
  responses: 'formline_responses_us',
  webhooks: 'formline_webhooks_us',
} as const;

// Indexes that only the migrations create, because Prisma's schema language
// cannot describe them (a GIN index whose first column is plain text, through
// btree_gin): schema.prisma names them in a comment. Against the schema, the
// diff drops exactly these and nothing else.
const migrationOnlyIndexes: Record<keyof typeof migratedDatabases, string[]> = {
  global: [],
  responses: ['responses_form_id_answered_fields_idx', 'responses_form_id_search_text_idx'],
  webhooks: [],
};

describe('migrations', () => {
  it.each(Object.entries(migratedDatabases) as Array<[keyof typeof migratedDatabases, string]>)(
    'build exactly the %s schema the client is generated from',
    async (schema, database) => {
      const diff = await run(
        process.execPath,
        [
          'tools/db/prisma-migrate.cjs',
          schema,
          'migrate',
          'diff',
          '--from-config-datasource',
          '--to-schema',
          `prisma/${schema}/schema.prisma`,
          '--script',
        ],
        // The tool needs nothing of the environment but the database.
        { cwd: root, env: { DATABASE_URL: databaseUrl(testInfra(), database) } },
      ).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code,
          stdout: error.stdout ?? '',
          stderr: error.stderr ?? '',
        }),
      );
      // stderr says why, when the tool itself failed.
      const stderr = diff.code === 0 ? '' : diff.stderr.trim();
      const statements = diff.stdout
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.startsWith('--'))
        .sort();
      expect({ code: diff.code, statements, stderr }).toEqual({
        code: 0,
        statements: migrationOnlyIndexes[schema].map((index) => `DROP INDEX "${index}";`).sort(),
        stderr: '',
      });
    },
    // A node process and Prisma's wasm engine each: seconds on a busy machine.
    120_000,
  );

  describe('account emails lower-cased (20261126160000)', () => {
    const target = '20261126160000_account_emails_lower_case';
    const db = databaseBefore('global', target);

    it('lower-cases each address, and leaves those another account holds in any case', async () => {
      const accounts = [
        ['a-mixed', 'Ada@Example.COM'],
        ['b-lower', 'bob@example.com'],
        ['b-mixed', 'Bob@Example.com'],
        ['c-lower', 'cy@example.com'],
        // Two that differ only by case, neither lower-cased: lowering both would collide.
        ['d-mixed', 'Dan@Example.com'],
        ['d-upper', 'DAN@EXAMPLE.COM'],
      ];
      for (const [id, email] of accounts) {
        await db().query(`INSERT INTO accounts (id, alias, email, region) VALUES ($1, $1, $2, 'us')`, [
          id,
          email,
        ]);
      }
      await db().query(migrationSql('global', target));
      const { rows } = await db().query<{ id: string; email: string }>(
        'SELECT id, email FROM accounts ORDER BY id',
      );
      expect(rows).toEqual([
        { id: 'a-mixed', email: 'ada@example.com' },
        { id: 'b-lower', email: 'bob@example.com' },
        // Its lower-cased address is another account's: left for an operator.
        { id: 'b-mixed', email: 'Bob@Example.com' },
        { id: 'c-lower', email: 'cy@example.com' },
        { id: 'd-mixed', email: 'Dan@Example.com' },
        { id: 'd-upper', email: 'DAN@EXAMPLE.COM' },
      ]);
    });
  });
  describe('answer tallies counted for the responses already stored (20261129110000)', () => {
    const target = '20261129110000_insights_answer_tallies';
    const db = databaseBefore('responses', target);

    const insert = (id: string, type: string, answers: object[]) =>
      db().query(
        `INSERT INTO responses (id, form_id, account_id, landed_at, submitted_at, payload, search_text, response_type)
         VALUES ($1, 'form', 'account', now(), now(), $2, '', $3)`,
        [id, JSON.stringify({ answers }), type],
      );
    const plan = (id: string) => ({
      field: { id: 'plan', type: 'dropdown' },
      type: 'choice',
      choice: { id, ref: id, label: id },
    });
    const seats = (value: number) => ({
      field: { id: 'seats', type: 'number' },
      type: 'number',
      number: value,
    });
    const tallies = async () =>
      (
        await db().query<{ tally: string; key: string; count: string; total: string }>(
          `SELECT tally, replace(key, chr(31), ' = ') AS key, sum(count)::text AS count, sum(total)::text AS total
             FROM response_tallies WHERE tally IN ('answers', 'answer')
            GROUP BY 1, 2 HAVING sum(count) <> 0 ORDER BY 1, 2`,
        )
      ).rows.map((row) => `${row.tally} ${row.key}: ${row.count} (${row.total})`);

    it('counts the completed responses once, and takes a counted one away exactly on delete', async () => {
      await insert('r1', 'completed', [plan('free'), seats(3)]);
      await insert('r2', 'completed', [plan('team'), seats(0.5)]);
      await insert('r3', 'partial', [plan('team')]);
      await db().query(migrationSql('responses', target));
      expect(await tallies()).toEqual([
        'answer plan = choice:free: 1 (0)',
        'answer plan = choice:team: 1 (0)',
        'answers plan: 2 (0)',
        'answers seats: 2 (3.5)',
      ]);
      // The other tallies are as they were: not counted twice.
      const { rows } = await db().query<{ count: string }>(
        `SELECT sum(count)::text AS count FROM response_tallies WHERE tally = 'type'`,
      );
      expect(rows[0].count).toBe('3');
      await db().query(`UPDATE responses SET response_type = 'completed' WHERE id = 'r3'`);
      await db().query(`DELETE FROM responses WHERE id IN ('r1', 'r2')`);
      expect(await tallies()).toEqual(['answer plan = choice:team: 1 (0)', 'answers plan: 1 (0)']);
    });
  });
  describe('tally deltas planned inline (20261129130000)', () => {
    const target = '20261129130000_tally_deltas_planned_inline';
    const db = databaseBefore('responses', target);
    const field = (id: string, type: string) => ({ id, ref: id, type });
    // Every kind of answer the tallies count, and the edges of their bounds.
    const corpus: Array<[string, object]> = [
      [
        'completed',
        {
          metadata: { platform: 'mobile' },
          answers: [
            { field: field('plan', 'dropdown'), type: 'choice', choice: { id: 'team', label: 'Team' } },
            {
              field: field('extras', 'multiple_choice'),
              type: 'choices',
              choices: { ids: ['a', 'b'], other: 'c' },
            },
            { field: field('pick', 'picture_choice'), type: 'choice', choice: { other: 'mine' } },
            { field: field('ok', 'yes_no'), type: 'boolean', boolean: false },
            { field: field('stars', 'rating'), type: 'number', number: 4 },
            { field: field('nps', 'nps'), type: 'number', number: 9 },
            { field: field('seats', 'number'), type: 'number', number: 2.5 },
            { field: field('name', 'short_text'), type: 'text', text: 'Ada' },
            { field: { ref: 'no-id', type: 'rating' }, type: 'number', number: 1 },
            { field: field('x'.repeat(700), 'dropdown'), type: 'choice', choice: { id: 'long' } },
          ],
        },
      ],
      [
        'completed',
        {
          answers: Array.from({ length: 1100 }, (_, i) => ({
            field: field(`q${i}`, 'number'),
            type: 'number',
            number: i,
          })),
        },
      ],
      [
        'partial',
        {
          metadata: { platform: 'desktop' },
          answers: [{ field: field('plan', 'dropdown'), type: 'choice', choice: { id: 'free' } }],
        },
      ],
      ['partial', { answers: {} }],
      ['completed', {}],
    ];
    // The same writes for one form: the corpus, then a partial completed.
    const write = async (formId: string) => {
      for (const [index, [type, payload]] of corpus.entries())
        await db().query(
          `INSERT INTO responses (id, form_id, account_id, landed_at, submitted_at, payload, search_text, response_type)
           VALUES ($1, $2, 'account', '2026-11-29 10:00:00', '2026-11-29 10:00:07.25', $3, '', $4)`,
          [`${formId}-${index}`, formId, JSON.stringify(payload), type],
        );
      await db().query(`UPDATE responses SET response_type = 'completed' WHERE id = $1`, [`${formId}-2`]);
    };
    const tallies = async (formId: string) =>
      (
        await db().query<{ tally: string; key: string; sums: string }>(
          `SELECT tally, key, sum(count) || ' ' || sum(milliseconds) || ' ' || sum(total) AS sums
             FROM response_tallies WHERE form_id = $1 GROUP BY 1, 2
           HAVING sum(count) <> 0 OR sum(milliseconds) <> 0 OR sum(total) <> 0 ORDER BY 1, 2`,
          [formId],
        )
      ).rows;

    it('counts what the function it replaced counted, and takes away what that one added', async () => {
      await write('before');
      await db().query(migrationSql('responses', target));
      await write('after');
      const counted = await tallies('before');
      expect(counted.length).toBeGreaterThan(1000);
      expect(await tallies('after')).toEqual(counted);
      await db().query(`DELETE FROM responses`);
      expect(await tallies('before')).toEqual([]);
      expect(await tallies('after')).toEqual([]);
    });
  });
});

// A scratch database holding `schema` as it stood just before the migration
// `target`: made before the enclosing describe's tests, dropped after them.
function databaseBefore(schema: keyof typeof migratedDatabases, target: string): () => pg.Client {
  let server: pg.Client;
  let db: pg.Client;
  const name = `formline_int_${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    const infra = testInfra();
    server = new pg.Client({ connectionString: databaseUrl(infra, 'postgres') });
    await server.connect();
    await server.query(`CREATE DATABASE "${name}"`);
    db = new pg.Client({ connectionString: databaseUrl(infra, name) });
    await db.connect();
    for (const migration of migrations(schema).filter((folder) => folder < target))
      await db.query(migrationSql(schema, migration));
  });
  afterAll(async () => {
    await db?.end();
    await server?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await server?.end();
  });
  return () => db;
}

function migrations(schema: keyof typeof migratedDatabases): string[] {
  return readdirSync(path.join(root, 'prisma', schema, 'migrations'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function migrationSql(schema: keyof typeof migratedDatabases, folder: string): string {
  return readFileSync(path.join(root, 'prisma', schema, 'migrations', folder, 'migration.sql'), 'utf8');
}
