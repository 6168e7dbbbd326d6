// `npm run test:timings [-- --since <epoch ms>] [--top <n>]`: where the last `npm test` spent its
// time. Prints each turbo task's wall time and each jest suite file's, slowest first. Without
// --since it reads the newest turbo run; .ci/run passes its own start so both passes are shown.
import { jestPasses, numberOption, turboRuns } from './test-results.mjs';

const sinceMs = numberOption('--since');
const top = numberOption('--top') ?? 40;
const seconds = (s) => `${s.toFixed(1).padStart(7)} s`;

for (const run of turboRuns({ sinceMs })) {
  const { startTime, endTime } = run.execution;
  console.log(`\nturbo: ${run.execution.command}  (${seconds((endTime - startTime) / 1000).trim()} wall)`);
  const tasks = run.tasks
    .map((task) => ({
      id: task.taskId,
      cache: task.cache.status,
      secs: task.execution ? (task.execution.endTime - task.execution.startTime) / 1000 : 0,
    }))
    .sort((a, b) => b.secs - a.secs);
  for (const task of tasks) console.log(`${seconds(task.secs)}  ${task.id}${task.cache === 'HIT' ? '  (cache hit)' : ''}`);
}

for (const { pass, workspaces } of jestPasses()) {
  const files = workspaces.flatMap((ws) => ws.files.map((file) => ({ ...file, name: `${ws.workspace}/${file.file}` }))).sort((a, b) => b.seconds - a.seconds);
  const total = files.reduce((sum, file) => sum + file.seconds, 0);
  console.log(`\njest (${pass}): ${files.length} suite files, ${seconds(total).trim()} summed; slowest ${Math.min(top, files.length)}:`);
  for (const file of files.slice(0, top)) console.log(`${seconds(file.seconds)}  ${file.name}  (${file.tests} tests)`);
}
