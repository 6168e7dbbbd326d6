import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerClientKeyCommands } from './commands/client-keys';
import { registerEventsCommand } from './commands/events';
import { registerNodeCommands } from './commands/nodes';
import { registerPoolCommands } from './commands/pools';
import { registerProfileCommands } from './commands/profile';
import { registerRpcCommand } from './commands/rpc';
import { registerSessionCommands } from './commands/session';
import { registerSignUpCommands } from './commands/sign-up';
import { registerStreamCommands } from './commands/streams';
import { registerTwoFactorCommands } from './commands/two-factor';
import { registerValidatorCommands } from './commands/validators';
import { Context, type CliIo, type GlobalOptions } from './context';
import { reportFailure, UsageError } from './exit-codes';

// The `cloud` program: global options, the command groups, and one way every command ends (an
// exit code from exit-codes.ts).

/** Runs `cloud` with `argv` (without node and script) and answers its exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  // Known before parsing, so commander's own refusals (an unknown command, a bad argument) come
  // out as JSON too.
  const json = argv.includes('--json');
  let commanderMessage: string | undefined;
  // The command being run (`login`, `nodes create`), so a failure's advice fits it.
  let ran: string | undefined;
  const program = new Command('cloud')
    .description('Host blockchain nodes: sign up, create nodes and validators, and call them through the node-proxy.')
    .version(version(), '-V, --version')
    .option('--json', 'print results as JSON (for scripts); errors too, as {"error": {...}} on stdout')
    .option('--accounts-url <url>', 'accounts API (env CLOUD_ACCOUNTS_URL; default http://127.0.0.1:3001)')
    .option('--nodes-url <url>', 'nodes API (env CLOUD_NODES_URL; default http://127.0.0.1:3002)')
    .option('--staking-url <url>', 'staking API (env CLOUD_STAKING_URL; default http://127.0.0.1:3003)')
    .option('--streams-url <url>', 'streams API (env CLOUD_STREAMS_URL; default http://127.0.0.1:3004)')
    .option('--proxy-ca <file>', 'PEM certificate to trust for the node-proxy, e.g. .data/tls/proxy-cert.pem (env CLOUD_PROXY_CA)')
    .showHelpAfterError(json ? false : '(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // With --json the refusal is printed as the JSON error below, not as commander's text.
      outputError: (text, write) => {
        if (json) commanderMessage = text;
        else write(text);
      },
    });
  program.hook('preAction', (_program, action) => {
    ran = commandPath(action);
  });
  let context: Context | undefined;
  const contextOf = (command: Command) => (context ??= new Context(io, command.optsWithGlobals<GlobalOptions>()));
  // In the order `cloud --help` lists them.
  registerSignUpCommands(program, contextOf);
  registerSessionCommands(program, contextOf);
  registerProfileCommands(program, contextOf);
  registerClientKeyCommands(program, contextOf);
  registerEventsCommand(program, contextOf);
  registerTwoFactorCommands(program, contextOf);
  registerNodeCommands(program, contextOf);
  registerPoolCommands(program, contextOf);
  registerValidatorCommands(program, contextOf);
  registerStreamCommands(program, contextOf);
  registerRpcCommand(program, contextOf);
  exitInsteadOfThrowing(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end well; anything else commander found is a usage error, already
      // printed (as text), or with --json printed here as the JSON error of a UsageError.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      if (!json) return 2;
      const message = (commanderMessage ?? error.message).trim().replace(/^error: /, '');
      return reportFailure({ json, out: io.stdout, err: io.stderr }, new UsageError(message), io.env);
    }
    const output = context?.output ?? { json, out: io.stdout, err: io.stderr };
    return reportFailure(output, error, io.env, ran);
  }
}

/** A command's words after `cloud`: `login`, `nodes create`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Commander exits the process on its own errors by default; here every subcommand throws instead. */
function exitInsteadOfThrowing(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) exitInsteadOfThrowing(sub);
}

function version(): string {
  // src/ and dist/ both sit next to package.json.
  return (JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
}
