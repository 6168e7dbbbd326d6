// The closing lines of .ci/run: the test counts of every jest pass and, for each failed test, its
// workspace, suite file, name and first error line. Exits 1 when a test failed or none passed.
import { jestPasses, numberOption, turboRuns } from './test-results.mjs';

const sinceMs = numberOption('--since');

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const perPass = [];
for (const { pass, workspaces } of jestPasses()) {
  perPass.push(`${pass}: ${workspaces.reduce((sum, ws) => sum + ws.passed, 0)}`);
  for (const ws of workspaces) {
    passed += ws.passed;
    failed += ws.failed;
    skipped += ws.skipped;
    for (const failure of ws.failures) failures.push({ pass, workspace: ws.workspace, ...failure });
  }
}
// Every failed turbo task with its log (a lint or type-check failure has no jest result).
const failedTasks = turboRuns({ sinceMs })
  .flatMap((run) => run.tasks)
  .filter((task) => task.execution && task.execution.exitCode !== 0);
for (const task of failedTasks) console.log(`FAILED ${task.taskId} (log: ${task.logFile})`);
for (const f of failures.slice(0, 20)) console.log(`FAILED [${f.pass}] ${f.workspace} ${f.file} › ${f.test}\n    ${f.error}`);
if (failures.length > 20) console.log(`… and ${failures.length - 20} more failed tests`);
console.log(`tests: ${passed} passed (${perPass.join(', ')}), ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
if (failed > 0 || passed === 0 || failedTasks.length > 0) process.exit(1);
