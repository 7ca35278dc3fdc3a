// The test profile's servers for a Jest global setup (the integration, e2e and
// image tests): scripts/infra.sh up on the profile's own ports and data (so a
// running `npm start` is untouched), then the profile's settings in the
// environment of the tests, read from the one place that defines them
// (scripts/profile.sh).
//
// Lanes: when the e2e specs are spread over several Jest workers, each worker
// gets a lane of its own, a whole set of servers (PostgreSQL, both regions'
// NATS and Redis), so that no spec ever sees another's streams, queues,
// counters or rows, and a spec that stops a server stops only its lane's.
// Lane 1 is the profile itself; lane k sits 100 × (k − 1) ports above it, with
// its data in <DATA_DIR>/lane-k. Each lane also draws the apps' ports from its
// own slice of the test port range (TEST_PORT_SLICE, libs/testing free-port.ts),
// so two lanes never hand out one port.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const profileVariables =
  /^(FORMLINE_PROFILE|DATA_DIR|PG_PORT|NATS_PORT_(US|EU)|REDIS_PORT_(US|EU)|DATABASE_HOST_URL)$/;
const portVariables = ['PG_PORT', 'NATS_PORT_US', 'NATS_PORT_EU', 'REDIS_PORT_US', 'REDIS_PORT_EU'];
const laneSpacing = 100;

function profileOf(env) {
  const profile = execFileSync('bash', ['-c', `source "${root}/scripts/profile.sh" && env -0`], { env });
  const settings = {};
  for (const entry of profile.toString().split('\0')) {
    const [name, ...value] = entry.split('=');
    if (profileVariables.test(name)) settings[name] = value.join('=');
  }
  return settings;
}

function laneSettings(base, lane) {
  if (lane === 1) return base;
  const moved = { ...base, DATA_DIR: path.join(base.DATA_DIR, `lane-${lane}`) };
  for (const name of portVariables) moved[name] = String(Number(base[name]) + laneSpacing * (lane - 1));
  moved.DATABASE_HOST_URL = `postgresql://postgres@127.0.0.1:${moved.PG_PORT}`;
  return moved;
}

// Starts `lanes` sets of servers; the first one's settings go into
// process.env, and with more than one, every lane's into TEST_LANES (JSON)
// for test/e2e/lane-env.js to pick its worker's. Answers the lanes' settings.
function startTestProfile(lanes = 1) {
  const env = { ...process.env, FORMLINE_PROFILE: 'test' };
  const base = profileOf(env);
  const all = [];
  for (let lane = 1; lane <= lanes; lane++) {
    const settings = laneSettings(base, lane);
    execFileSync('bash', [path.join(root, 'scripts/infra.sh'), 'up'], {
      env: { ...env, ...settings },
      stdio: 'inherit',
    });
    all.push(lanes > 1 ? { ...settings, TEST_PORT_SLICE: `${lane}/${lanes}` } : settings);
  }
  Object.assign(process.env, all[0]);
  if (lanes > 1) process.env.TEST_LANES = JSON.stringify(all);
  else delete process.env.TEST_LANES;
  return all;
}

module.exports = { startTestProfile };
