// Lint is part of `npm test`. Type-aware rules catch what reviews miss in
// async service code: floating promises, promises where callbacks belong, and
// switches that forget a case.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';
import { depConstraints } from './tools/lint/module-boundaries.constraints.mjs';
import { moduleBoundaries } from './tools/lint/module-boundaries.rule.mjs';

const testFiles = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.images-spec.ts'];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', '.data/**', 'coverage/**', 'libs/db/src/generated/**', '.nx/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  // Caller input is data: no regex that backtracks super-linearly, as they run
  // on caller input (a quadratic email check once stalled a whole region).
  {
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  // NestJS injects by the runtime class: a type-only import of an injected
  // class would erase the token, so these files may import classes as values.
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  // A service owns its tables and reaches another's data only over NATS, so no
  // app may import another; what runs in a browser brings no Node code with it.
  // The tags of project.json (docs/architecture.md, "Project tags") say each
  // project's kind, scope and platform; tools/lint/module-boundaries.constraints.mjs
  // draws what each may import.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.cjs', '**/*.js'],
    plugins: { formline: moduleBoundaries },
    rules: {
      'formline/enforce-module-boundaries': ['error', { depConstraints: depConstraints({ tests: false }) }],
    },
  },
  // Tests run in Node under Jest whatever their project's platform, and set up
  // what they test with the test and operator libraries; a project's build
  // script (a browser project's bundle.mjs) runs in Node at build time, with
  // the build's shared steps (tools/build).
  {
    files: [...testFiles, 'apps/*/bundle.mjs'],
    rules: {
      'formline/enforce-module-boundaries': ['error', { depConstraints: depConstraints({ tests: true }) }],
    },
  },
  // Configuration is parsed and validated once, at boot, by libs/config, so a
  // bad variable stops the app with its name and nothing reads the environment
  // behind the schema's back.
  {
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    ignores: [
      'libs/config/**',
      'libs/stack/**',
      'libs/testing/**',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through libs/config.' },
      ],
    },
  },
  // NATS subjects are named once, in libs/contracts (Subjects): a subject
  // spelled elsewhere drifts from the one its handler listens on.
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'],
    ignores: ['libs/contracts/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^[a-z]+(\\.[a-z_-]+)+\\.v[0-9]+$/]',
          message: 'Name NATS subjects through Subjects in libs/contracts.',
        },
      ],
    },
  },
  // Tests assert on JSON bodies, which are `any` by nature, and so do their
  // helpers (libs/testing, and those beside the specs in test/).
  {
    files: [...testFiles, 'libs/testing/**/*.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        __dirname: 'readonly',
        module: 'writable',
        jest: 'readonly',
        WebAssembly: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
