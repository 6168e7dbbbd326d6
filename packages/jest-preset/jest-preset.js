const path = require('node:path');

// New PGlite databases in tests start from a copy of one initialized database kept here instead
// of each running initdb (@cloud/db's openPglite); the test's own child processes inherit it.
process.env.PGLITE_TEMPLATE_DIR ??= path.resolve(__dirname, '..', '..', 'node_modules', '.cache', 'pglite-template');

/**
 * Shared jest configuration. Tests run the TypeScript sources directly (swc, no type-check:
 * `npm run typecheck` does that), and workspace packages resolve to their `src/` through the
 * `@cloud/source` export condition, so no build is needed before testing.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: {
    customExportConditions: ['@cloud/source', 'node', 'node-addons'],
  },
  roots: ['<rootDir>/src', '<rootDir>/test'].filter((dir) => require('node:fs').existsSync(dir.replace('<rootDir>', process.cwd()))),
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      // ignoreDynamic keeps import() as is (it loads ES-only packages such as @kubernetes/client-node).
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  reporters: ['default', require.resolve('./results-reporter.js')],
  // A guard against hangs, not a speed goal: starting PGlite compiles WASM and a platform starts
  // four services and node software, which on a busy 2-core machine (turbo runs two suites at
  // once) has taken over 60 s. Hooks without a timeout of their own take this one too.
  testTimeout: 180000,
};
