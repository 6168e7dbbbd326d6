import { Option, type Command } from 'commander';
import type { StakingLimits, Validator } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { positiveInteger } from '../option-parsers';
import { note, printJson, printList, printRecord } from '../output';
import { waitWithProgress } from './wait';

// Avalanche validators: validators create|list|info|remove|limits.

export function registerValidatorCommands(program: Command, contextOf: ContextOf): void {
  const validators = program.command('validators').description('your Avalanche validator nodes (networks: mainnet, fuji)');
  validators
    .command('create')
    .description('create a validator node; its NodeID is known at once, its node password shown once and kept for cloud rpc')
    .argument('<network>', 'mainnet or fuji')
    .option('--wait', 'wait until its node runs; exit non-zero if it fails')
    .addOption(new Option('--timeout <seconds>', 'with --wait, give up after this long').default(600).argParser(positiveInteger))
    .action(async (network: string, options: { wait?: boolean; timeout: number }, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const created = await cloud.staking.create(network);
      if (created.nodePass) ctx.saveNodeCredentials(created.nodeId, { user: created.nodeUser, password: created.nodePass });
      const validator = options.wait
        ? await waitWithProgress(ctx, created.nodeId, (wait) => cloud.staking.waitUntilRunning(network, created.nodeId, wait), options.timeout)
        : created;
      const shown = { ...validator, nodePass: created.nodePass };
      if (ctx.output.json) return printJson(ctx.output, shown);
      printValidator(ctx, shown);
      note(
        ctx.output,
        `Register ${created.chainNodeId} on the P-chain yourself (stake, period, reward address); cloud validators info ${created.nodeId} then shows its status.`,
      );
    });
  validators
    .command('list')
    .description('your validators, on one network or all')
    .argument('[network]', 'mainnet or fuji (default: all)')
    .action(async (network: string | undefined, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const staking = ctx.cloud().staking;
      const list = network ? await staking.list(network) : await staking.listAll();
      printList<Validator>(
        ctx.output,
        list,
        [
          { key: 'nodeId', header: 'ID' },
          { key: 'networkLabel', header: 'NETWORK' },
          { key: 'chainNodeId', header: 'NODEID' },
          { key: 'state', header: 'NODE' },
          { key: 'registration', header: 'REGISTRATION', format: (registration) => (registration as Validator['registration']).status },
        ],
        'No validators. Create one with: cloud validators create fuji',
      );
    });
  validators
    .command('info')
    .description('one validator, with its registration read from the P-chain')
    .argument('<nodeId>')
    .action(async (nodeId: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const validator = await ctx.cloud().staking.find(nodeId);
      return ctx.output.json ? printJson(ctx.output, validator) : printValidator(ctx, validator);
    });
  validators
    .command('remove')
    .description('delete a validator and its node (refused while its stake is locked)')
    .argument('<nodeId>')
    .action(async (nodeId: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const staking = ctx.cloud().staking;
      const { network } = await staking.find(nodeId);
      const removed = await staking.remove(network, nodeId);
      ctx.forgetNodeCredentials(nodeId);
      if (ctx.output.json) return printJson(ctx.output, removed);
      note(ctx.output, `Deleting validator ${nodeId} and its node.`);
    });
  validators
    .command('limits')
    .description("the network's staking limits, with where each comes from")
    .argument('<network>', 'mainnet or fuji')
    .action(async (network: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const limits = await ctx.cloud().staking.limits(network);
      return ctx.output.json ? printJson(ctx.output, limits) : printLimits(ctx, limits);
    });
}

function printValidator(ctx: Context, validator: Validator): void {
  const { registration } = validator;
  const { endpoints } = validator;
  printRecord(ctx.output, [
    ['Id', validator.nodeId],
    ['NodeID', validator.chainNodeId],
    ['Network', validator.networkLabel],
    ['Node', validator.stateReason ? `${validator.state}: ${validator.stateReason}` : validator.state],
    ['Registration', registration.reason ? `${registration.status} (${registration.reason})` : registration.status],
    ['Staking period', registration.startTime && registration.endTime ? `${registration.startTime} to ${registration.endTime}` : undefined],
    ['Stake (nAVAX)', registration.stake],
    ['Weight (nAVAX)', registration.weight],
    ['Uptime', registration.uptime === undefined ? undefined : `${registration.uptime} %`],
    ['API', `${endpoints.jsonRpc}ext/…`],
    ['Management', endpoints.management === undefined ? undefined : `${endpoints.management}status`],
    ['Node user', validator.nodeUser],
    ['Node password', validator.nodePass],
    ['Created', validator.createdAt],
  ]);
}

function printLimits(ctx: Context, limits: StakingLimits): void {
  printRecord(ctx.output, [
    ['Network', `${limits.chain} ${limits.network}`],
    ['Minimum stake', limits.minimumStake.text],
    ['Minimum staking time', limits.minimumStakeDuration.text],
    ['Maximum staking time', limits.maximumStakeDuration.text],
    ['Maximum weight', limits.maximumWeight.text],
  ]);
}
