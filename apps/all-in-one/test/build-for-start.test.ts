import path from 'node:path';
import { pathToFileURL } from 'node:url';

// `npm start` builds first: a fresh clone's first build takes minutes, so it must say what it does
// (issue 28: it printed nothing but turbo's banner for about 5 minutes).
const script = pathToFileURL(path.join(__dirname, '..', '..', '..', 'scripts', 'build-for-start.mjs')).href;

/** turbo's output with --output-logs=full --log-order=grouped, as one build of three packages printed it. */
const TURBO_OUTPUT = `
   • turbo 2.11.9
   • Packages in scope: @cloud/all-in-one, @cloud/chains, @cloud/config
   • Running build in 3 packages
   • Remote caching disabled, using shared worktree cache

@cloud/chains:build: cache hit, replaying logs 1f2e3d4c5b6a7980
@cloud/chains:build: > tsc -p tsconfig.build.json
@cloud/config:build: cache miss, executing 60f03ad6f99f8ce4
@cloud/config:build: > tsc -p tsconfig.build.json
@cloud/all-in-one:build: cache miss, executing 0a1b2c3d4e5f6a7b
@cloud/all-in-one:build: > tsc -p tsconfig.build.json

 Tasks:    3 successful, 3 total`;

describe("npm start's build step", () => {
  it('prints a line for each package as it is built, counted against the whole', async () => {
    const { turboProgress } = (await import(script)) as { turboProgress(): (line: string) => string | undefined };
    const progress = turboProgress();
    const lines = TURBO_OUTPUT.split('\n')
      .map(progress)
      .filter((line) => line !== undefined);
    expect(lines).toEqual(['[1/3] @cloud/chains up to date', '[2/3] @cloud/config built', '[3/3] @cloud/all-in-one built']);
  });
});
