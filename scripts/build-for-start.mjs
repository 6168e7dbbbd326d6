// `npm start`'s first step: builds what the all-in-one platform and the CLI need (turbo; a build
// already made is reused from its cache), saying what it does as it goes, since the first build
// of a fresh clone takes minutes and turbo's own output is either silent or the compilers' whole
// log. A failed build prints the log of the task that failed, and npm start stops there.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { clearInterval, setInterval } from 'node:timers';
import { pathToFileURL } from 'node:url';

const TURBO_ARGS = ['turbo', 'run', 'build', '--filter=@cloud/all-in-one...', '--filter=@cloud/cli...', '--output-logs=full', '--log-order=grouped'];
const QUIET_MS = 15_000;

/** The lines a task group starts with: `@cloud/db:build: cache miss, executing <hash>`. */
const TASK_LINE = /^(\S+):build: cache (hit|miss)/;
const TOTAL_LINE = /Running build in (\d+) packages?/;

/**
 * Follows turbo's output line by line: `onLine(line)` returns the progress line to print for it,
 * if any (a task's group arrives when the task is done, so each is one more package built).
 */
export function turboProgress() {
  let total;
  let done = 0;
  return (line) => {
    const count = TOTAL_LINE.exec(line);
    if (count) total = Number(count[1]);
    const task = TASK_LINE.exec(line);
    if (!task) return undefined;
    done += 1;
    return `[${done}/${total ?? '?'}] ${task[1]} ${task[2] === 'hit' ? 'up to date' : 'built'}`;
  };
}

function main() {
  const started = Date.now();
  const log = [];
  const progress = turboProgress();
  let lastNews = Date.now();
  console.log('npm start: building the platform first (a fresh clone takes a few minutes; later starts reuse the build)');
  const child = spawn('npx', TURBO_ARGS, { stdio: ['ignore', 'pipe', 'pipe'], env: { TURBO_TELEMETRY_DISABLED: '1', ...process.env } });
  const quiet = setInterval(() => {
    if (Date.now() - lastNews >= QUIET_MS) {
      console.log(`  … still building (${Math.round((Date.now() - started) / 1000)} s)`);
      lastNews = Date.now();
    }
  }, 1000);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      log.push(line);
      const news = progress(line);
      if (news) {
        lastNews = Date.now();
        console.log(`  ${news}`);
      }
    });
  }
  child.on('close', (code) => {
    clearInterval(quiet);
    if (code === 0) {
      console.log(`npm start: built in ${Math.round((Date.now() - started) / 1000)} s; starting the platform`);
      return;
    }
    console.error(log.join('\n'));
    console.error(`npm start: the build failed (exit ${code}); its log is above`);
    process.exit(code ?? 1);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
