// Two tiers: `unit` (fast, no servers) and `e2e` (the real apps as processes,
// real NATS, Redis and PostgreSQL started by the global setup).
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
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/e2e/global-setup.js',
      setupFilesAfterEnv: ['<rootDir>/test/e2e/jest-timeout.js'],
    },
  ],
};
