// The test profile's databases, fresh for every run without migrating them
// every run: each schema (global, responses, webhooks) is migrated once into
// a template named after its migrations, `formline_template_<schema>_<hash>`,
// kept on the test server between runs; a run drops the five databases and
// copies them from the templates (CREATE DATABASE ... TEMPLATE: a file copy,
// a fraction of a second, where migrating took seconds). A changed migration
// folder makes a new template, and the old one goes.
const { execFile } = require('node:child_process');
const { createHash } = require('node:crypto');
const { readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const pg = require('pg');

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

const databases = {
  formline_global: 'global',
  formline_responses_us: 'responses',
  formline_responses_eu: 'responses',
  formline_webhooks_us: 'webhooks',
  formline_webhooks_eu: 'webhooks',
};

// What a schema's databases are made of: every file of its migrations, and the script that applies them.
function migrationsHash(schema) {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir).sort()) {
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  };
  walk(path.join(root, 'prisma', schema, 'migrations'));
  hash.update(readFileSync(path.join(root, 'tools/db/prisma-migrate.cjs')));
  return hash.digest('hex').slice(0, 12);
}

// Answers the templates by schema, which integration specs copy databases of their own from.
async function freshTestDatabases(databaseHostUrl, dataDir) {
  const server = new pg.Client({ connectionString: `${databaseHostUrl}/postgres` });
  await server.connect();
  // One client runs one statement at a time: the templates below are built in
  // parallel, so their statements queue here (pg 9 refuses overlapping queries).
  let last = Promise.resolve();
  const query = (sql) => {
    const next = last.then(() => server.query(sql));
    last = next.catch(() => undefined);
    return next;
  };
  try {
    const { rows } = await query("SELECT datname FROM pg_database WHERE datname LIKE 'formline\\_%'");
    const existing = new Set(rows.map((row) => row.datname));
    const templates = {};
    const missing = [];
    for (const schema of new Set(Object.values(databases))) {
      templates[schema] = `formline_template_${schema}_${migrationsHash(schema)}`;
      if (!existing.has(templates[schema])) missing.push(schema);
    }
    // The five go, and what runs leave behind: stale templates, copies of
    // killed integration specs, the templates of earlier harnesses.
    const current = new Set(Object.values(templates));
    const ours = (name) =>
      name in databases || /^formline_(int_|template_)/.test(name) || /^formline_\w+_template$/.test(name);
    for (const name of existing) {
      if (ours(name) && !current.has(name)) await query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    await Promise.all(
      missing.map(async (schema) => {
        const template = templates[schema];
        const building = `${template}_building`;
        await query(`CREATE DATABASE "${building}"`);
        const log = path.join(dataDir, `migrate-${schema}.log`);
        try {
          const { stdout, stderr } = await run(
            'node',
            [path.join(root, 'tools/db/prisma-migrate.cjs'), schema, 'migrate', 'deploy'],
            { cwd: root, env: { ...process.env, DATABASE_URL: `${databaseHostUrl}/${building}` } },
          );
          writeFileSync(log, `${stdout}${stderr}`);
        } catch (error) {
          writeFileSync(log, `${error.stdout ?? ''}${error.stderr ?? ''}`);
          throw new Error(`migrating ${schema} failed (its output: ${log})`, { cause: error });
        }
        // Named only once complete: an interrupted build is never taken for a template.
        await query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      }),
    );
    for (const [name, schema] of Object.entries(databases)) {
      await query(`CREATE DATABASE "${name}" TEMPLATE "${templates[schema]}"`);
    }
    return templates;
  } finally {
    await server.end();
  }
}

module.exports = { freshTestDatabases };
