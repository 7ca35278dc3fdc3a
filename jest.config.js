// Three tiers: `unit` (fast, no servers), `integration` (one component's
// classes in-process against the real NATS, Redis and PostgreSQL of the test
// profile, each spec in seconds) and `e2e` (the real apps as processes). The
// last two share the global setup that starts the servers (run once).
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
    },
    module: { type: 'commonjs' },
  },
];

const shared = {
  // NestJS 12 ships ESM only: let swc turn it into CommonJS for Jest.
  transform: { '^.+\\.(t|j)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
  // The generated Prisma clients import './x.js' that exists only as x.ts.
  moduleNameMapper: { '^@formline/(.*)$': '<rootDir>/libs/$1/src', '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: 'node',
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts', '<rootDir>/deploy/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/respondent-web/'],
    },
    // The respondent page's browser code, in a DOM (jsdom): the same tier,
    // selected with it by its name.
    {
      ...shared,
      displayName: 'unit',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/apps/respondent-web/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/e2e/global-setup.js',
      setupFilesAfterEnv: ['<rootDir>/test/integration/jest-timeout.js'],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/e2e/global-setup.js',
      setupFiles: ['<rootDir>/test/e2e/lane-env.js'],
      setupFilesAfterEnv: ['<rootDir>/test/e2e/jest-timeout.js'],
    },
  ],
};
