import { Option, type Command } from 'commander';
import type { NodeAccess, NodeAccessRequest, NodeCredential } from '@cloud/sdk';
import type { Context } from '../context';
import { UsageError } from '../exit-codes';
import { note, printJson, printRecord, printTable } from '../output';
import { positiveInteger } from '../program';

// nodes access: a node's access rules; nodes credentials create|list|remove: its named Basic credentials.

type ContextOf = (command: Command) => Context;

interface AccessOptions {
  allowIp?: string[];
  allowOrigin?: string[];
  refuseMethod?: string[];
  rate?: number | 'default';
  clear?: boolean;
}

const rateOption = (value: string): number | 'default' => (value === 'default' ? 'default' : positiveInteger(value));

/** The rules to set: what the options name replaces that field, the rest is kept (`--clear`: nothing kept). */
function nextRules(current: NodeAccess, options: AccessOptions): NodeAccessRequest {
  const base: NodeAccessRequest = options.clear ? {} : { ...current };
  return {
    ...base,
    ...(options.allowIp ? { ipAllowlist: options.allowIp } : {}),
    ...(options.allowOrigin ? { originAllowlist: options.allowOrigin } : {}),
    ...(options.refuseMethod ? { refusedMethods: options.refuseMethod } : {}),
    ...(options.rate === undefined ? {} : { ratePerSecond: options.rate === 'default' ? null : options.rate }),
  };
}

function printAccess(ctx: Context, access: NodeAccess): void {
  const list = (items: string[], none: string) => (items.length > 0 ? items.join(', ') : none);
  printRecord(ctx.output, [
    ['IP allowlist', list(access.ipAllowlist, 'any address')],
    ['Origins (CORS)', list(access.originAllowlist, 'none (no CORS)')],
    ['Refused methods', list(access.refusedMethods, 'only the platform\'s')],
    ['Rate', access.ratePerSecond === null ? 'the platform\'s' : `${access.ratePerSecond} calls per second`],
  ]);
}

export function registerNodeAccessCommands(nodes: Command, contextOf: ContextOf): void {
  nodes
    .command('access')
    .description('show the node\'s access rules, or change them: each option replaces that rule, the others are kept')
    .argument('<nodeId>')
    .option('--allow-ip <cidr...>', 'take calls only from these addresses or CIDRs (IPv4, IPv6)')
    .option('--allow-origin <origin...>', 'let web pages of these origins call the node (CORS)')
    .option('--refuse-method <name...>', 'refuse these methods too (-32601)')
    .addOption(new Option('--rate <n>', 'calls per second, below the platform\'s; `default` for the platform\'s').argParser(rateOption))
    .option('--clear', 'start from no rules: anywhere, no CORS, the platform\'s methods and rate')
    .action(async (nodeId: string, options: AccessOptions, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const current = await cloud.nodes.access(nodeId);
      const changes = options.clear || options.allowIp || options.allowOrigin || options.refuseMethod || options.rate !== undefined;
      const access = changes ? (await cloud.nodes.setAccess(nodeId, nextRules(current, options))).access : current;
      if (ctx.output.json) return printJson(ctx.output, access);
      printAccess(ctx, access);
      if (changes) note(ctx.output, 'Every node-proxy applies them within a second.');
    });

  const credentials = nodes.command('credentials').description('the node\'s named Basic credentials (not for a jwt node, which takes your client access token)');
  credentials
    .command('create')
    .description('add a named credential; its password is shown once and kept for cloud rpc')
    .argument('<nodeId>')
    .argument('<name>', 'your name for it, e.g. the app that will use it')
    .action(async (nodeId: string, name: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const created = await ctx.cloud().nodes.createCredential(nodeId, name);
      ctx.saveNodeCredentials(nodeId, { user: created.nodeUser, password: created.nodePass });
      if (ctx.output.json) return printJson(ctx.output, created);
      printRecord(ctx.output, [
        ['Id', created.id],
        ['Name', created.name],
        ['Node user', created.nodeUser],
        ['Node password', created.nodePass],
      ]);
      note(ctx.output, `The password is shown only now; it is also kept in ${ctx.store.file} for cloud rpc.`);
    });
  credentials
    .command('list')
    .description('the node\'s credentials, oldest first (never their passwords)')
    .argument('<nodeId>')
    .action(async (nodeId: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const listed = await ctx.cloud().nodes.credentials(nodeId);
      if (ctx.output.json) return printJson(ctx.output, listed);
      printCredentials(ctx, listed);
    });
  credentials
    .command('remove')
    .description('revoke one credential, by id or name: it stops working within a second, the others go on')
    .argument('<nodeId>')
    .argument('<credential>', 'its id (cred-...) or its name')
    .action(async (nodeId: string, credential: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const listed = await cloud.nodes.credentials(nodeId);
      const target = listed.find((each) => each.id === credential) ?? listed.find((each) => each.name === credential);
      if (!target) throw new UsageError(`node ${nodeId} has no credential ${credential}; see cloud nodes credentials list ${nodeId}`);
      const left = await cloud.nodes.removeCredential(nodeId, target.id);
      if (ctx.output.json) return printJson(ctx.output, left);
      note(ctx.output, `Revoked ${target.name} (${target.id}).`);
      printCredentials(ctx, left);
    });
}

function printCredentials(ctx: Context, rows: NodeCredential[]): void {
  printTable<NodeCredential>(
    ctx.output,
    rows,
    [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'NAME' },
      { key: 'nodeUser', header: 'NODE USER' },
      { key: 'createdAt', header: 'CREATED' },
    ],
    'No credentials.',
  );
}
