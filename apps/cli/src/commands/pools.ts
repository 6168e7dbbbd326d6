import { Option, type Command } from 'commander';
import { poolHealth, type CloudClient, type Pool, type UpdatePoolRequest } from '@cloud/sdk';
import type { ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { nonNegativeInteger } from '../option-parsers';
import { note, printJson, printList } from '../output';
import { POOL_RULES, registerNodeAccessCommands } from './node-access';
import { POOL_ARGUMENT, resolveNodeId, resolvePoolId } from './node-names';
import { printPool } from './pool-record';
import { registerPoolUsageCommand } from './usage';

// pools create|list|info|update|remove (usage in usage.ts; access and credentials in node-access.ts): one endpoint, with its own credentials, over several of
// your nodes of one chain (services/nodes/README.md). `info` and `remove` answer to `get` and
// `delete` too, the API's words.

const MEMBER_OPTION = 'a member: a node id, or its name when no other node of yours has it; repeat for each (1-16, one image and network)';
const LAG_OPTION = "a member more than this many blocks behind the best member's head gets no calls (0-10000; default 5)";

export function registerPoolCommands(program: Command, contextOf: ContextOf): void {
  const pools = program.command('pools').description('pools: one endpoint over several of your nodes of one chain, with failover');
  pools
    .command('create')
    .description('create a pool of your nodes; its credential is shown once and kept for `cloud rpc`')
    .requiredOption('--name <name>', 'your label for it: 1-64 printable characters')
    .requiredOption('--member <node...>', MEMBER_OPTION)
    .addOption(new Option('--max-lag-blocks <n>', LAG_OPTION).argParser(nonNegativeInteger))
    .action(async (options: { name: string; member: string[]; maxLagBlocks?: number }, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const created = await cloud.pools.create({
        name: options.name,
        members: await memberIds(cloud, options.member),
        ...(options.maxLagBlocks === undefined ? {} : { maxLagBlocks: options.maxLagBlocks }),
      });
      const kept = created.nodeUser && created.nodePass ? { user: created.nodeUser, password: created.nodePass } : undefined;
      if (kept) ctx.saveNodeCredentials(created.id, kept);
      if (ctx.output.json) return printJson(ctx.output, created);
      printPool(ctx, created, kept);
      if (kept) note(ctx.output, `The password is shown only now; it is also kept in ${ctx.store.file} for cloud rpc ${created.id} <method>.`);
    });
  pools
    .command('list')
    .description('your pools, oldest first')
    .action(async (_options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const list = await ctx.cloud().pools.list();
      printList<Pool>(
        ctx.output,
        list,
        [
          { key: 'id', header: 'ID' },
          { key: 'name', header: 'NAME' },
          { key: 'image', header: 'IMAGE' },
          { key: 'networkLabel', header: 'NETWORK' },
          { key: 'members', header: 'MEMBERS', format: (members) => String((members as Pool['members']).length) },
          { key: 'maxLagBlocks', header: 'HEALTH', format: (_lag, pool) => poolHealth(pool).words },
          { key: 'endpoints', header: 'JSON-RPC', format: (endpoints) => (endpoints as Pool['endpoints']).jsonRpc },
          { key: 'createdAt', header: 'CREATED' },
        ],
        'No pools. Create one with: cloud pools create --name <name> --member <node> --member <node>',
      );
    });
  pools
    .command('info')
    .alias('get')
    .description('one pool: its endpoint, and its members with their state and whether each takes calls')
    .argument('<pool>', POOL_ARGUMENT)
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const poolId = await resolvePoolId(cloud, idOrName);
      const pool = await cloud.pools.get(poolId);
      return ctx.output.json ? printJson(ctx.output, pool) : printPool(ctx, pool, ctx.nodeCredentials(poolId));
    });
  pools
    .command('update')
    .description('rename a pool, replace its members (as a whole: give each with --member) or change its lag bound; its endpoint and credentials stay')
    .argument('<pool>', POOL_ARGUMENT)
    .option('--name <name>', 'the new name')
    .option('--member <node...>', `${MEMBER_OPTION}; the members given replace the old ones`)
    .addOption(new Option('--max-lag-blocks <n>', LAG_OPTION).argParser(nonNegativeInteger))
    .action(async (idOrName: string, options: { name?: string; member?: string[]; maxLagBlocks?: number }, command: Command) => {
      if (options.name === undefined && options.member === undefined && options.maxLagBlocks === undefined) {
        throw new UsageError('give what to change: --name, --member (each member) or --max-lag-blocks');
      }
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const poolId = await resolvePoolId(cloud, idOrName);
      const change: UpdatePoolRequest = {
        ...(options.name === undefined ? {} : { name: options.name }),
        ...(options.member === undefined ? {} : { members: await memberIds(cloud, options.member) }),
        ...(options.maxLagBlocks === undefined ? {} : { maxLagBlocks: options.maxLagBlocks }),
      };
      const pool = await cloud.pools.update(poolId, change);
      return ctx.output.json ? printJson(ctx.output, pool) : printPool(ctx, pool, ctx.nodeCredentials(poolId));
    });
  pools
    .command('remove')
    .alias('delete')
    .description('delete a pool: its endpoint and credentials stop working; its member nodes run on')
    .argument('<pool>', POOL_ARGUMENT)
    .action(async (idOrName: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const poolId = await resolvePoolId(cloud, idOrName);
      const deleted = await cloud.pools.remove(poolId);
      ctx.forgetNodeCredentials(poolId);
      if (ctx.output.json) return printJson(ctx.output, deleted);
      note(ctx.output, `Deleted ${poolId}; its member nodes run on.`);
    });
  registerPoolUsageCommand(pools, contextOf);
  registerNodeAccessCommands(pools, contextOf, POOL_RULES);
}

/** The node ids of the `--member` values, each an id or a node's name. */
async function memberIds(cloud: CloudClient, members: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const member of members) ids.push(await resolveNodeId(cloud, member));
  return ids;
}
