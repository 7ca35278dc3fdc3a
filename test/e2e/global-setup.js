// Before the end-to-end tests: the test profile's NATS, Redis and PostgreSQL
// (own ports and data, so a running `npm start` is untouched), fresh databases
// with every migration applied, and the profile's settings in the environment
// of the tests, read from the one place that defines them (scripts/profile.sh).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

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
};
