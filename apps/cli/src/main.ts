import { run } from './program';

// The `cloud` binary (bin/cloud.js loads this).
void run(process.argv.slice(2), { env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then((code) => {
  process.exitCode = code;
});
