/** The `npm run dead-letters` entry point (the command is in dead-letters-command.ts). */
import { runDeadLettersCommand } from './dead-letters-command';

runDeadLettersCommand(process.argv.slice(2), { env: process.env, out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
