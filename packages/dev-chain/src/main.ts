#!/usr/bin/env node
import { parseArguments, usage } from './args';
import { startAvalancheDevChain } from './avalanche';
import { startDevChain } from './index';
import { DEV_CHAIN_NAME, DEV_CHAIN_VERSION } from './version';

/** bitcoind's log timestamp: ISO 8601 to the second. */
function timestamp(): string {
  return `${new Date().toISOString().slice(0, 19)}Z`;
}

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseArguments(argv);
  } catch (error) {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${DEV_CHAIN_NAME} version v${DEV_CHAIN_VERSION}\n`);
    return 0;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  const logger = (line: string) => process.stdout.write(`${timestamp()} ${line}\n`);
  const node =
    command.kind === 'avalanche' ? await startAvalancheDevChain({ ...command.options, logger }) : await startDevChain({ ...command.options, logger });
  const shutdown = () => void node.stop();
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await node.stopped;
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
