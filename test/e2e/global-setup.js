// Before the integration and end-to-end tests: the test profile's NATS, Redis
// and PostgreSQL (own ports and data, so a running `npm start` is untouched),
// fresh databases with every migration applied, and the profile's settings in
// the environment of the tests, read from the one place that defines them
// (scripts/profile.sh). Jest runs it once when both tiers run.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const pg = require('pg');

// Copies of the freshly migrated region databases, `<name>_template`, that
// integration specs clone a database of their own from (libs/testing
// test-database.ts); made now, while nothing is connected to the originals.
// Clones a run left behind (a spec killed before its cleanup) go too.
async function makeTemplates(databaseHostUrl) {
  const server = new pg.Client({ connectionString: `${databaseHostUrl}/postgres` });
  await server.connect();
  try {
    const { rows } = await server.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'formline\\_int\\_%' OR datname LIKE 'formline\\_%\\_template'",
    );
    for (const { datname } of rows) await server.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    for (const source of ['formline_responses_us', 'formline_webhooks_us']) {
      await server.query(`CREATE DATABASE "${source}_template" TEMPLATE "${source}"`);
    }
  } finally {
    await server.end();
  }
}

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  const env = { ...process.env, FORMLINE_PROFILE: 'test' };
  execFileSync('bash', [path.join(root, 'scripts/infra.sh'), 'up'], { env, stdio: 'inherit' });
  execFileSync('bash', [path.join(root, 'scripts/migrate.sh'), '--reset'], { env, stdio: 'inherit' });
  const profile = execFileSync('bash', ['-c', `source "${root}/scripts/profile.sh" && env -0`], { env });
  for (const entry of profile.toString().split('\0')) {
    const [name, ...value] = entry.split('=');
    if (
      /^(FORMLINE_PROFILE|DATA_DIR|PG_PORT|NATS_PORT_(US|EU)|REDIS_PORT_(US|EU)|DATABASE_HOST_URL)$/.test(
        name,
      )
    ) {
      process.env[name] = value.join('=');
    }
  }
  await makeTemplates(process.env.DATABASE_HOST_URL);
};
