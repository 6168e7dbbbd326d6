const { withDatabaseSuites } = require('@cloud/jest-preset/database-suites');

// On PostgreSQL too (npm run test:postgres): the suites whose checks go through SQL. TESTING.md says why each.
module.exports = withDatabaseSuites([
  'test/access-api.test.ts',
  'test/api.test.ts',
  'test/migrations.test.ts',
  'test/node-names.test.ts',
  'test/node-operations.test.ts',
  'test/nodes.repository.test.ts',
  'test/openapi.test.ts',
  'test/pools-api.test.ts',
  'test/proxy-requests.test.ts',
  'test/rabbitmq.test.ts',
  'test/reconciler.test.ts',
  'test/usage.test.ts',
  'test/user-deletion.test.ts',
]);
