import { Argument, Option, type Command } from 'commander';
import { syncWords, type ChainOption, type Node, type UserImage } from '@cloud/sdk';
import type { ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { positiveInteger } from '../option-parsers';
import { note, printJson, printList } from '../output';
import { registerNodeAccessCommands } from './node-access';
import { NODE_ARGUMENT, resolveNodeId } from './node-names';
import { printNode } from './node-record';
import { registerNodeOperationCommands } from './node-operations';
import { registerUsageCommand } from './usage';
import { waitWithProgress } from './wait';

// Nodes: chains, and nodes create|list|info|remove|logs (stop|start|restart|resize in node-operations.ts,
// access and credentials in node-access.ts, usage in usage.ts).

const USER_IMAGES: UserImage[] = ['btc', 'bch', 'ltc', 'btctestnet', 'bchtestnet', 'eth'];

export function registerNodeCommands(program: Command, contextOf: ContextOf): void {
  program
    .command('chains')
    .description('the chains you can create nodes of, and the software each runs')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const chains = await ctx.cloud().nodes.chains();
      printList<ChainOption>(
        ctx.output,
        chains,
        [
          { key: 'image', header: 'IMAGE' },
          { key: 'networkLabel', header: 'NETWORK', format: (_label, option) => runsOn(option) },
          { key: 'software', header: 'SOFTWARE' },
        ],
        'No chains.',
      );
    });

  const nodes = program.command('nodes').description('your hosted nodes');
  nodes
    .command('create')
    .description('create a node; its credentials are shown once and kept for `cloud rpc`')
    .addArgument(new Argument('<image>', 'what to run').choices(USER_IMAGES))
    .option('--name <name>', 'your label for it: 1-64 printable characters (cloud nodes rename changes it)')
    .option('--large', 'a larger, faster node')
    .option('--jwt', 'the node takes your client access token (Bearer) instead of Basic credentials')
    .option('--txindex', 'keep a transaction index, so getrawtransaction finds any transaction (btc, bch, ltc; not on a pruned chain)')
    .option('--wait', 'wait until it runs (through syncing, with a progress bar); exit non-zero if it fails')
    .addOption(new Option('--timeout <seconds>', 'with --wait, give up after this long').default(600).argParser(positiveInteger))
    .action(
      async (
        image: UserImage,
        options: { name?: string; large?: boolean; jwt?: boolean; txindex?: boolean; wait?: boolean; timeout: number },
        command: Command,
      ) => {
        const ctx = contextOf(command);
        const cloud = ctx.cloud();
        const created = await cloud.nodes.create({
          image,
          ...(options.name === undefined ? {} : { name: options.name }),
          large: options.large === true,
          jwt: options.jwt === true,
          txindex: options.txindex === true,
        });
        if (created.nodeUser && created.nodePass) ctx.saveNodeCredentials(created.id, { user: created.nodeUser, password: created.nodePass });
        const node = options.wait
          ? await waitWithProgress(ctx, created.id, (wait) => cloud.nodes.waitUntilRunning(created.id, wait), options.timeout)
          : created;
        const shown = { ...node, nodeUser: created.nodeUser, nodePass: created.nodePass };
        if (ctx.output.json) return printJson(ctx.output, shown);
        printNode(ctx, shown, created.nodeUser && created.nodePass ? { user: created.nodeUser, password: created.nodePass } : undefined);
        if (created.nodePass) note(ctx.output, `The password is shown only now; it is also kept in ${ctx.store.file} for cloud rpc.`);
        if (!options.wait) note(ctx.output, `It is provisioning. See it come up with: cloud nodes info ${created.id}`);
      },
    );
  nodes
    .command('list')
    .description('your nodes, oldest first')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const list = await ctx.cloud().nodes.list();
      printList<Node>(
        ctx.output,
        list,
        [
          { key: 'id', header: 'ID' },
          { key: 'name', header: 'NAME' },
          { key: 'image', header: 'IMAGE' },
          { key: 'state', header: 'STATE', format: (_state, node) => stateText(node) },
          { key: 'networkLabel', header: 'NETWORK' },
          { key: 'address', header: 'ADDRESS' },
          { key: 'ports', header: 'PORT', format: (ports) => String((ports as Node['ports']).jsonRpc) },
          { key: 'createdAt', header: 'CREATED' },
        ],
        'No nodes. Create one with: cloud nodes create <image>',
      );
    });
  nodes
    .command('info')
    .description('one node')
    .argument('<node>', NODE_ARGUMENT)
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const nodeId = await resolveNodeId(cloud, idOrName);
      const node = await cloud.nodes.get(nodeId);
      return ctx.output.json ? printJson(ctx.output, node) : printNode(ctx, node, ctx.nodeCredentials(nodeId));
    });
  nodes
    .command('rename')
    .description('give a node a new name (1-64 printable characters), or remove its name with --clear; nothing else changes')
    .argument('<node>', NODE_ARGUMENT)
    .argument('[name]', 'the new name')
    .option('--clear', 'remove the name')
    .action(async (idOrName: string, name: string | undefined, options: { clear?: boolean }, command: Command) => {
      if ((name === undefined) === (options.clear !== true)) throw new UsageError('give a new name, or --clear to remove the name');
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const node = await cloud.nodes.rename(await resolveNodeId(cloud, idOrName), name ?? null);
      if (ctx.output.json) return printJson(ctx.output, node);
      note(ctx.output, node.name === null ? `${node.id} has no name now.` : `${node.id} is named ${JSON.stringify(node.name)}.`);
    });
  nodes
    .command('remove')
    .description('delete a node and its data')
    .argument('<node>', NODE_ARGUMENT)
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const nodeId = await resolveNodeId(cloud, idOrName);
      const node = await cloud.nodes.remove(nodeId);
      ctx.forgetNodeCredentials(nodeId);
      if (ctx.output.json) return printJson(ctx.output, node);
      note(ctx.output, `Deleting ${nodeId}.`);
    });
  registerNodeOperationCommands(nodes, contextOf);
  registerUsageCommand(nodes, contextOf);
  nodes
    .command('logs')
    .description("the last lines of the node software's log")
    .argument('<node>', NODE_ARGUMENT)
    .addOption(new Option('--lines <n>', 'how many lines (1-10000)').default(100).argParser(positiveInteger))
    .action(async (idOrName: string, options: { lines: number }, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const lines = await cloud.nodes.logs(await resolveNodeId(cloud, idOrName), options.lines);
      if (ctx.output.json) return printJson(ctx.output, lines);
      for (const line of lines) ctx.output.out.write(`${line}\n`);
    });
  registerNodeAccessCommands(nodes, contextOf);
}

/** Where a chain option's nodes run, in the words every screen uses (`ltc dev chain (regtest)`), and whether pruned. */
function runsOn(option: ChainOption): string {
  return option.pruned ? `${option.networkLabel}, pruned` : option.networkLabel;
}

/** The state, with how far a syncing node is, and when it has no peers to sync from. */
function stateText(node: Node): string {
  const state = node.state === 'syncing' && node.sync ? `syncing ${(node.sync.progress * 100).toFixed(1)}%` : node.state;
  return syncWords(node).hint?.startsWith('no peers') ? `${state} (no peers)` : state;
}
