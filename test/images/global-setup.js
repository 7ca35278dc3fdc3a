// Before the image test: the test profile's NATS, Redis and PostgreSQL (as for
// the e2e tests), the profile's settings in the environment, and empty
// databases of the image test's own (formline_images_*, dropped: the `migrate`
// image creates and migrates them, not scripts/migrate.sh), and an empty Redis
// database of its own (9).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const databases = ['formline_images_global', 'formline_images_responses_us', 'formline_images_webhooks_us'];

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  const env = { ...process.env, FORMLINE_PROFILE: 'test' };
  execFileSync('bash', [path.join(root, 'scripts/infra.sh'), 'up'], { env, stdio: 'inherit' });
  const profile = execFileSync('bash', ['-c', `source "${root}/scripts/profile.sh" && env -0`], { env });
  for (const entry of profile.toString().split('\0')) {
    const [name, ...value] = entry.split('=');
    if (
      /^(FORMLINE_PROFILE|DATA_DIR|PG_PORT|NATS_PORT_(US|EU)|REDIS_PORT_(US|EU)|DATABASE_HOST_URL)$/.test(
        name,
      )
    )
      process.env[name] = value.join('=');
  }
  const sql = (statement) =>
    execFileSync(
      'psql',
      [
        '-qtA',
        '-h',
        '127.0.0.1',
        '-p',
        process.env.PG_PORT,
        '-U',
        'postgres',
        '-d',
        'postgres',
        '-c',
        statement,
      ],
      {
        env: { ...env, PGOPTIONS: '-c client_min_messages=warning' },
      },
    );
  for (const name of databases) {
    sql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', process.env.REDIS_PORT_US, '-n', '9', 'FLUSHDB'], {
    stdio: 'ignore',
  });
};
