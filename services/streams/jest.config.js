const { withDatabaseSuites } = require('@cloud/jest-preset/database-suites');

// On PostgreSQL too (npm run test:postgres): the suites whose checks go through SQL. TESTING.md says why each.
module.exports = withDatabaseSuites(['test/migrations.test.ts', 'test/delivery.test.ts']);
