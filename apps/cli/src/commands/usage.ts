import { Option, type Command } from 'commander';
import type { NodeUsage } from '@cloud/sdk';
import { barChart } from '../bar-chart';
import type { Context, ContextOf } from '../context';
import { note, printJson, printRecord, printTable } from '../output';
import { POOL_ARGUMENT, resolvePoolId } from './node-names';

// cloud nodes usage <id>: a node's calls over time as a chart, and per method and per credential as
// tables; cloud pools usage <pool>: a pool's, alike.
type Totals = NodeUsage['totals'];
type UsageOptions = { from?: string; to?: string; granularity?: 'minute' | 'hour' };

const OUTCOMES = ['ok', 'node_error', 'refused', 'rate_limited', 'unauthorized'] as const;

export function registerUsageCommand(nodes: Command, contextOf: ContextOf): void {
  withRange(
    nodes
      .command('usage')
      .description('calls to the node over time (a chart), per method and per credential by outcome (tables); the last hour by minute unless told')
      .argument('<nodeId>'),
  ).action(async (nodeId: string, options: UsageOptions, command: Command) => {
    const ctx = contextOf(command);
    const usage = await ctx.cloud().nodes.usage(nodeId, options);
    if (ctx.output.json) return printJson(ctx.output, usage);
    printUsage(ctx, usage, 'Node');
  });
}

/** cloud pools usage <pool>: the same for the calls through a pool's endpoint, whichever member served them. */
export function registerPoolUsageCommand(pools: Command, contextOf: ContextOf): void {
  withRange(
    pools
      .command('usage')
      .description(
        "calls through the pool's endpoint over time (a chart), per method and per credential by outcome (tables); the last hour by minute unless told",
      )
      .argument('<pool>', POOL_ARGUMENT),
  ).action(async (idOrName: string, options: UsageOptions, command: Command) => {
    const ctx = contextOf(command);
    const cloud = ctx.cloud();
    const usage = await cloud.pools.usage(await resolvePoolId(cloud, idOrName), options);
    if (ctx.output.json) return printJson(ctx.output, usage);
    printUsage(ctx, usage, 'Pool');
  });
}

/** The range options of a usage command. */
function withRange(command: Command): Command {
  return command
    .option('--from <time>', 'start, an ISO 8601 date-time (default: an hour, or a day by hour, before --to)')
    .option('--to <time>', 'end, an ISO 8601 date-time (default: now)')
    .addOption(new Option('--granularity <size>', 'bucket size').choices(['minute', 'hour']));
}

function printUsage(ctx: Context, usage: NodeUsage, of: 'Node' | 'Pool'): void {
  const { totals } = usage;
  printRecord(ctx.output, [
    [of, usage.nodeId],
    ['Range', `${usage.from} to ${usage.to}, by ${usage.granularity}`],
    ['Calls', `${totals.total} (${outcomeText(totals.calls)})`],
    ['Bytes', `${totals.bytesIn} in, ${totals.bytesOut} out`],
  ]);
  if (totals.total === 0) {
    note(ctx.output, 'No calls in this range.');
    return;
  }
  const time = (iso: string) => (usage.granularity === 'minute' ? iso.slice(11, 16) : iso.slice(5, 13).replace('T', ' ') + 'h');
  ctx.output.out.write(`\nCalls per ${usage.granularity}:\n`);
  ctx.output.out.write(barChart(usage.series.map((point) => ({ label: time(point.time), value: point.total }))));
  ctx.output.out.write('\n');
  printTable<NodeUsage['methods'][number]>(ctx.output, usage.methods, [{ key: 'method', header: 'METHOD' }, ...outcomeColumns], 'No calls.');
  if (usage.credentials.length === 0) return;
  ctx.output.out.write('\n');
  printTable<NodeUsage['credentials'][number]>(
    ctx.output,
    usage.credentials,
    [
      { key: 'name', header: 'CREDENTIAL', format: (name) => (name === null ? '(removed)' : String(name)) },
      { key: 'credentialId', header: 'ID' },
      ...outcomeColumns,
    ],
    'No calls.',
  );
}

/** A column per outcome and the total, for any row with `calls` and `total`. */
const outcomeColumns = [
  ...OUTCOMES.map((outcome) => ({
    key: 'calls' as const,
    header: outcome.toUpperCase().replace('_', ' '),
    format: (calls: unknown) => String((calls as Totals['calls'])[outcome]),
  })),
  { key: 'total' as const, header: 'TOTAL' },
];

function outcomeText(calls: Totals['calls']): string {
  return OUTCOMES.filter((outcome) => calls[outcome] > 0)
    .map((outcome) => `${outcome} ${calls[outcome]}`)
    .join(', ');
}
