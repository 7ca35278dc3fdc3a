// `npm run test:images` only (scripts/test-images.sh), never part of `npm test`:
// a region run from the built container images, against the test profile's
// NATS, Redis and PostgreSQL. The transform and module mapping are the
// root config's; the setup starts the servers and empties the databases, which
// the `migrate` image then migrates.
const path = require('node:path');
const e2e = require('../../jest.config.js').projects.find((project) => project.displayName === 'e2e');

module.exports = {
  ...e2e,
  rootDir: path.resolve(__dirname, '../..'),
  displayName: 'images',
  testMatch: ['<rootDir>/test/images/**/*.images-spec.ts'],
  globalSetup: '<rootDir>/test/images/global-setup.js',
  setupFilesAfterEnv: ['<rootDir>/test/images/jest-timeout.js'],
};
