// Reads what the last test runs left behind: turbo's run summaries (.turbo/runs/*.json, written
// because `npm test` passes --summarize) and the jest results each workspace's reporter writes
// (.test-results/<pass>/<workspace>.json, packages/jest-preset/results-reporter.js).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The number after `name` on the command line (`--since 1795788550538`), or undefined. */
export function numberOption(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : Number(process.argv[at + 1]);
}

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function readJsonFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
}

/** Turbo runs started at or after `sinceMs` (or only the newest run), oldest first. */
export function turboRuns({ sinceMs } = {}) {
  const runs = readJsonFiles(path.join(repositoryRoot, '.turbo', 'runs')).sort((a, b) => a.execution.startTime - b.execution.startTime);
  if (sinceMs === undefined) return runs.slice(-1);
  return runs.filter((run) => run.execution.startTime >= sinceMs);
}

/** Each jest pass (pglite, postgres) with its workspaces' results. */
export function jestPasses(resultsDir = process.env.TEST_RESULTS_DIR || path.join(repositoryRoot, '.test-results')) {
  if (!fs.existsSync(resultsDir)) return [];
  return fs
    .readdirSync(resultsDir)
    .filter((pass) => fs.statSync(path.join(resultsDir, pass)).isDirectory())
    .map((pass) => ({ pass, workspaces: readJsonFiles(path.join(resultsDir, pass)) }));
}
