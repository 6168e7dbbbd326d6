const { withDatabaseSuites } = require('@cloud/jest-preset/database-suites');

// On PostgreSQL too (npm run test:postgres): the suites whose checks go through SQL. TESTING.md says why each.
module.exports = withDatabaseSuites([
  'test/bus-rabbitmq.test.ts',
  'test/client-keys.test.ts',
  'test/client-tokens.test.ts',
  'test/credentials-ended.test.ts',
  'test/delete-user.test.ts',
  'test/events-pipeline.test.ts',
  'test/events.test.ts',
  'test/flow.test.ts',
  'test/lockout.test.ts',
  'test/login-malformed.test.ts',
  'test/login-throttle-replicas.test.ts',
  'test/login.test.ts',
  'test/migrations.test.ts',
  'test/openapi.test.ts',
  'test/password-reset.test.ts',
  'test/profile-and-password.test.ts',
  'test/signup-and-verification.test.ts',
  'test/two-factor.test.ts',
]);
