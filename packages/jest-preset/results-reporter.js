/**
 * Writes what one workspace's jest run did to <dir>/<pass>/<workspace>.json: the counts, each
 * suite file's wall time, and the first error line of each failed test. <dir> is
 * $TEST_RESULTS_DIR, or `.test-results/` at the repository root; <pass> is `postgres` when
 * DATABASE_URL is set, else `pglite`. `npm run test:timings` and the closing lines of .ci/run
 * read these files.
 */
const fs = require('node:fs');
const path = require('node:path');

const repositoryRoot = path.resolve(__dirname, '..', '..');

function firstErrorLine(messages) {
  const text = (messages ?? []).join('\n');
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line ? line.slice(0, 300) : '';
}

class ResultsReporter {
  onRunComplete(_contexts, results) {
    const base = process.env.TEST_RESULTS_DIR || path.join(repositoryRoot, '.test-results');
    const dir = path.join(base, process.env.DATABASE_URL ? 'postgres' : 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    const workspace = path.relative(repositoryRoot, process.cwd()) || '.';
    const { numPassedTests: passed, numPendingTests: pending, numTodoTests: todo, numTotalTests: total } = results;
    // A suite that could not run (a throwing import, a syntax error) counts as a failure too.
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const files = [];
    const failures = [];
    for (const suite of results.testResults) {
      const file = path.relative(process.cwd(), suite.testFilePath);
      files.push({ file, seconds: (suite.perfStats.end - suite.perfStats.start) / 1000, tests: suite.testResults.length });
      if (suite.testExecError) failures.push({ file, test: '(suite)', error: firstErrorLine([suite.testExecError.message]) });
      for (const test of suite.testResults) {
        if (test.status === 'failed') failures.push({ file, test: test.fullName, error: firstErrorLine(test.failureMessages) });
      }
    }
    // A todo (e.g. a drift check for node software not installed here) is counted with the skipped, never as passed.
    const summary = { workspace, passed, failed, skipped: pending + todo, total, files, failures };
    fs.writeFileSync(path.join(dir, `${workspace.replaceAll('/', '__')}.json`), JSON.stringify(summary, null, 1));
  }
}

module.exports = ResultsReporter;
