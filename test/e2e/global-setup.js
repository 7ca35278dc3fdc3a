// Before the integration and end-to-end tests: the test profile's NATS, Redis
// and PostgreSQL with its settings in the tests' environment
// (tools/test/test-profile.cjs), and fresh databases with every migration
// applied (copied from templates, see test-databases.js). Jest runs it once
// when both tiers run. With several workers on e2e specs (scripts/test.sh
// runs two), one lane of servers a worker.
const { startTestProfile } = require('../../tools/test/test-profile.cjs');
const { freshTestDatabases } = require('./test-databases');

// One lane a worker: the e2e tier's workers never share servers.
function laneCount(globalConfig, projectConfig) {
  const name = projectConfig?.displayName?.name ?? projectConfig?.displayName;
  return name === 'e2e' ? Math.max(1, globalConfig.maxWorkers ?? 1) : 1;
}

module.exports = async function globalSetup(globalConfig, projectConfig) {
  const started = Date.now();
  const lanes = startTestProfile(laneCount(globalConfig, projectConfig));
  const infraReady = Date.now();
  const templates = await Promise.all(
    lanes.map((lane) => freshTestDatabases(lane.DATABASE_HOST_URL, lane.DATA_DIR)),
  );
  // The integration tier's databases are copies of these (libs/testing test-database.ts).
  process.env.TEST_DATABASE_TEMPLATES = JSON.stringify(templates[0]);
  if (lanes.length > 1) {
    const withTemplates = lanes.map((lane, index) => ({
      ...lane,
      TEST_DATABASE_TEMPLATES: JSON.stringify(templates[index]),
    }));
    process.env.TEST_LANES = JSON.stringify(withTemplates);
  }
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  process.stderr.write(
    `[test-setup] ${lanes.length} lane(s): servers ${seconds(infraReady - started)}, databases ${seconds(Date.now() - infraReady)}\n`,
  );
};
