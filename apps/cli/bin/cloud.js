#!/usr/bin/env node
// The `cloud` command: runs the compiled CLI, or says how to build it when it is not built yet
// (a fresh clone after `npm ci`, before `npm start` or a build).
let main;
try {
  main = require.resolve('../dist/main.js');
} catch {
  process.stderr.write('cloud: not built yet; run "npm run build -w @cloud/cli" (or "npm start", which builds it) from the repository root\n');
  process.exitCode = 1;
}
if (main) require(main);
