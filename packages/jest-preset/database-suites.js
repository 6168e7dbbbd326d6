/**
 * The jest configuration of a workspace some of whose suites behave differently by database.
 *
 * `npm test` runs every suite once on the embedded PGlite (the `test` task, which never sees
 * DATABASE_URL), and then, in the workspaces that declare them, only these suites again on the
 * PostgreSQL server of DATABASE_URL (the `test:postgres` task). Which suites and why is in
 * TESTING.md; a suite belongs here when what it checks goes through SQL (repositories,
 * migrations, the services' APIs, outboxes), not when it merely starts a service.
 *
 * @param {string[]} suites test files, relative to the workspace
 * @returns {import('jest').Config}
 */
function withDatabaseSuites(suites) {
  const config = { preset: '@cloud/jest-preset' };
  if (!process.env.DATABASE_URL) return config;
  return { ...config, testMatch: suites.map((suite) => `<rootDir>/${suite}`) };
}

module.exports = { withDatabaseSuites };
