// The test profile's servers for a Jest global setup (the integration, e2e and
// image tests): scripts/infra.sh up on the profile's own ports and data (so a
// running `npm start` is untouched), then the profile's settings in the
// environment of the tests, read from the one place that defines them
// (scripts/profile.sh).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const profileVariables =
  /^(FORMLINE_PROFILE|DATA_DIR|PG_PORT|NATS_PORT_(US|EU)|REDIS_PORT_(US|EU)|DATABASE_HOST_URL)$/;

function startTestProfile() {
  const env = { ...process.env, FORMLINE_PROFILE: 'test' };
  execFileSync('bash', [path.join(root, 'scripts/infra.sh'), 'up'], { env, stdio: 'inherit' });
  const profile = execFileSync('bash', ['-c', `source "${root}/scripts/profile.sh" && env -0`], { env });
  for (const entry of profile.toString().split('\0')) {
    const [name, ...value] = entry.split('=');
    if (profileVariables.test(name)) process.env[name] = value.join('=');
  }
}

module.exports = { startTestProfile };
