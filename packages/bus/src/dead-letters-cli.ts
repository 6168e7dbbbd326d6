/** The `npm run dead-letters` entry point (the command is in dead-letters-command.ts). */
import { exitWithError } from '@cloud/http';
import { runDeadLettersCommand } from './dead-letters-command';

runDeadLettersCommand(process.argv.slice(2), { env: process.env, out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) }).then(
  (code) => process.exit(code),
  (error: unknown) => exitWithError(error),
);
