const { withDatabaseSuites } = require('@cloud/jest-preset/database-suites');

// On PostgreSQL too (npm run test:postgres): the suites whose checks go through SQL. TESTING.md says why each.
module.exports = withDatabaseSuites([
  'test/api.test.ts',
  'test/creation.test.ts',
  'test/delivery.test.ts',
  'test/migrations.test.ts',
  'test/openapi.test.ts',
  'test/scanner.test.ts',
]);
