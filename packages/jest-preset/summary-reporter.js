/**
 * Writes each workspace's test counts to $JEST_SUMMARY_DIR/<workspace>.json when that variable
 * is set, so .ci/run can print one closing line for the whole monorepo.
 */
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const dir = process.env.JEST_SUMMARY_DIR;
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    const name = path.basename(process.cwd());
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: pending, numTodoTests: todo, numTotalTests: total } = results;
    // A todo (e.g. a drift check for node software not installed here) is counted with the skipped, never as passed.
    const skipped = pending + todo;
    fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ passed, failed, skipped, total }));
  }
}

module.exports = SummaryReporter;
