import { Option, type Command } from 'commander';
import type { CloudClient, Node } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { positiveInteger } from '../option-parsers';
import { note, printJson } from '../output';
import { NODE_ARGUMENT, resolveNodeId } from './node-names';
import { printNode } from './node-record';
import { waitWithProgress } from './wait';

// nodes stop|start|restart|resize: the node keeps its data, credentials and address.

interface WaitFlags {
  wait?: boolean;
  timeout: number;
}

/** What each command asks for, and what --wait waits for. */
const OPERATIONS = [
  {
    name: 'stop',
    description: 'stop a node, keeping its data, credentials and address',
    call: (cloud: CloudClient, id: string) => cloud.nodes.stop(id),
    until: 'stopped',
  },
  {
    name: 'start',
    description: 'start a stopped (or failed) node on its kept data',
    call: (cloud: CloudClient, id: string) => cloud.nodes.start(id),
    until: 'running',
  },
  {
    name: 'restart',
    description: 'stop a node and start it again on its kept data',
    call: (cloud: CloudClient, id: string) => cloud.nodes.restart(id),
    until: 'running',
  },
] as const;

export function registerNodeOperationCommands(nodes: Command, contextOf: ContextOf): void {
  for (const operation of OPERATIONS) {
    withWait(nodes.command(operation.name).description(operation.description).argument('<node>', NODE_ARGUMENT), `wait until it is ${operation.until}`).action(
      async (idOrName: string, options: WaitFlags, command: Command) => {
        const ctx = contextOf(command);
        const cloud = ctx.cloud();
        const node = await operation.call(cloud, await resolveNodeId(cloud, idOrName));
        await show(ctx, cloud, node, options, operation.until);
      },
    );
  }
  withWait(
    nodes
      .command('resize')
      .description('make a node large or small (standard): a running node restarts with it, a stopped one takes it when started')
      .argument('<node>', NODE_ARGUMENT)
      .option('--large', 'the large resource class')
      .option('--small', 'the standard resource class'),
    'wait until it runs again (a running node is restarted)',
  ).action(async (idOrName: string, options: WaitFlags & { large?: boolean; small?: boolean }, command: Command) => {
    if (options.large === options.small) throw new UsageError('give one of --large or --small');
    const ctx = contextOf(command);
    const cloud = ctx.cloud();
    const node = await cloud.nodes.resize(await resolveNodeId(cloud, idOrName), options.large === true);
    // Only a node that was running restarts; a stopped or failed one just records its new class.
    await show(ctx, cloud, node, { ...options, wait: options.wait === true && node.state === 'stopping' }, 'running');
  });
}

function withWait(command: Command, what: string): Command {
  return command
    .option('--wait', what)
    .addOption(new Option('--timeout <seconds>', 'with --wait, give up after this long').default(600).argParser(positiveInteger));
}

async function show(ctx: Context, cloud: CloudClient, answered: Node, options: WaitFlags, until: 'running' | 'stopped'): Promise<void> {
  const wait = until === 'running' ? cloud.nodes.waitUntilRunning.bind(cloud.nodes) : cloud.nodes.waitUntilStopped.bind(cloud.nodes);
  const node = options.wait
    ? await waitWithProgress(ctx, answered.id, (progress) => wait(answered.id, progress), options.timeout, { from: answered.state, to: until })
    : answered;
  if (ctx.output.json) return printJson(ctx.output, node);
  printNode(ctx, node);
  if (node.state === 'stopping' || node.state === 'provisioning') note(ctx.output, `It is ${node.state}. Follow it with: cloud nodes info ${node.id}`);
}
