// Before the image test: the test profile's NATS, Redis and PostgreSQL (as for
// the e2e tests), the profile's settings in the environment, and empty
// databases of the image test's own (formline_images_*, dropped: the `migrate`
// image creates and migrates them, not scripts/migrate.sh), and an empty Redis
// database of its own (9).
const { execFileSync } = require('node:child_process');
const { startTestProfile } = require('../../tools/test/test-profile.cjs');

const databases = ['formline_images_global', 'formline_images_responses_us', 'formline_images_webhooks_us'];

module.exports = async function globalSetup() {
  const env = { ...process.env, FORMLINE_PROFILE: 'test' };
  startTestProfile();
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
