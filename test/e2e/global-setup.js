// Before the integration and end-to-end tests: the test profile's NATS, Redis
// and PostgreSQL with its settings in the tests' environment
// (tools/test/test-profile.cjs), and fresh databases with every migration
// applied (copied from templates, see test-databases.js). Jest runs it once
// when both tiers run.
const { startTestProfile } = require('../../tools/test/test-profile.cjs');
const { freshTestDatabases } = require('./test-databases');

module.exports = async function globalSetup() {
  const started = Date.now();
  startTestProfile();
  const infraReady = Date.now();
  const templates = await freshTestDatabases(process.env.DATABASE_HOST_URL, process.env.DATA_DIR);
  // The integration tier's databases are copies of these (libs/testing test-database.ts).
  process.env.TEST_DATABASE_TEMPLATES = JSON.stringify(templates);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  process.stderr.write(
    `[test-setup] servers ${seconds(infraReady - started)}, databases ${seconds(Date.now() - infraReady)}\n`,
  );
};
