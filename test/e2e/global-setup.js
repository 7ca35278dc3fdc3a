// Before the integration and end-to-end tests: the test profile's NATS, Redis
// and PostgreSQL (own ports and data, so a running `npm start` is untouched),
// fresh databases with every migration applied (copied from templates, see
// test-databases.js), and the profile's settings in the environment of the
// tests, read from the one place that defines them (scripts/profile.sh).
// Jest runs it once when both tiers run.
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { freshTestDatabases } = require('./test-databases');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  const env = { ...process.env, FORMLINE_PROFILE: 'test' };
  const started = Date.now();
  execFileSync('bash', [path.join(root, 'scripts/infra.sh'), 'up'], { env, stdio: 'inherit' });
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
  const infraReady = Date.now();
  const templates = await freshTestDatabases(process.env.DATABASE_HOST_URL, process.env.DATA_DIR);
  // The integration tier's databases are copies of these (libs/testing test-database.ts).
  process.env.TEST_DATABASE_TEMPLATES = JSON.stringify(templates);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  process.stderr.write(
    `[test-setup] servers ${seconds(infraReady - started)}, databases ${seconds(Date.now() - infraReady)}\n`,
  );
};
