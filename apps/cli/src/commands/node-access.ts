import { Option, type Command } from 'commander';
import type { CloudClient, NewNodeCredential, NodeAccess, NodeAccessRequest, NodeCredential, NodeEndpoints } from '@cloud/sdk';
import type { Context, ContextOf } from '../context';
import { UsageError } from '../exit-codes';
import { positiveInteger } from '../option-parsers';
import { note, printJson, printRecord, printTable } from '../output';
import { linesFor, printReadyLines } from '../ready-lines';

// nodes access: a node's access rules; nodes credentials create|list|rotate|remove: its named
// credentials, Basic (user and password) or URL tokens. pools access and pools credentials: a
// pool's own, alike (the API serves both alike).

/** The API calls of a node's or a pool's rules and credentials (`cloud.nodes`, `cloud.pools`). */
type RulesApi = Pick<CloudClient['nodes'], 'access' | 'credentials' | 'createCredential' | 'rotateCredential' | 'removeCredential'> & {
  setAccess(id: string, rules: NodeAccessRequest): Promise<{ access: NodeAccess }>;
  get(id: string): Promise<{ image: string; endpoints: NodeEndpoints }>;
};

/** Whose rules and credentials the commands manage: a node's (`cloud nodes …`) or a pool's (`cloud pools …`). */
export interface RulesOwner {
  noun: 'node' | 'pool';
  api: (cloud: CloudClient) => RulesApi;
}

export const NODE_RULES: RulesOwner = { noun: 'node', api: (cloud) => cloud.nodes };
export const POOL_RULES: RulesOwner = { noun: 'pool', api: (cloud) => cloud.pools };

interface AccessOptions {
  allowIp?: string[];
  allowOrigin?: string[];
  refuseMethod?: string[];
  rate?: number | 'default';
  maxAnswer?: number | 'default';
  clear?: boolean;
}

/** A whole number, or `default` for the platform's. */
const numberOrDefault = (value: string): number | 'default' => (value === 'default' ? 'default' : positiveInteger(value));
const platformsOr = (value: number | 'default') => (value === 'default' ? null : value);

/** The rules to set: what the options name replaces that field, the rest is kept (`--clear`: nothing kept). */
function nextRules(current: NodeAccess, options: AccessOptions): NodeAccessRequest {
  const base: NodeAccessRequest = options.clear ? {} : { ...current };
  return {
    ...base,
    ...(options.allowIp ? { ipAllowlist: options.allowIp } : {}),
    ...(options.allowOrigin ? { originAllowlist: options.allowOrigin } : {}),
    ...(options.refuseMethod ? { refusedMethods: options.refuseMethod } : {}),
    ...(options.rate === undefined ? {} : { ratePerSecond: platformsOr(options.rate) }),
    ...(options.maxAnswer === undefined ? {} : { maxAnswerBytes: platformsOr(options.maxAnswer) }),
  };
}

function printAccess(ctx: Context, access: NodeAccess): void {
  const list = (items: string[], none: string) => (items.length > 0 ? items.join(', ') : none);
  printRecord(ctx.output, [
    ['IP allowlist', list(access.ipAllowlist, 'any address')],
    ['Origins (CORS)', list(access.originAllowlist, 'none (no CORS)')],
    ['Refused methods', list(access.refusedMethods, "only the platform's")],
    ['Rate', access.ratePerSecond === null ? "the platform's" : `${access.ratePerSecond} calls per second`],
    ['Largest answer', access.maxAnswerBytes === null ? "the platform's" : `${access.maxAnswerBytes} bytes`],
  ]);
}

export function registerNodeAccessCommands(nodes: Command, contextOf: ContextOf, owner: RulesOwner = NODE_RULES): void {
  const { noun } = owner;
  const idArgument = `<${noun}Id>`;
  nodes
    .command('access')
    .description(`show the ${noun}'s access rules, or change them: each option replaces that rule, the others are kept`)
    .argument(idArgument)
    .option('--allow-ip <cidr...>', 'take calls only from these addresses or CIDRs (IPv4, IPv6)')
    .option('--allow-origin <origin...>', `let web pages of these origins call the ${noun} (CORS)`)
    .option('--refuse-method <name...>', 'refuse these methods too (-32601)')
    .addOption(new Option('--rate <n>', "calls per second, below the platform's; `default` for the platform's").argParser(numberOrDefault))
    .addOption(
      new Option('--max-answer <bytes>', "refuse answers larger than this (-32005), below the platform's; `default` for the platform's").argParser(
        numberOrDefault,
      ),
    )
    .option('--clear', "start from no rules: anywhere, no CORS, the platform's methods, rate and answer bound")
    .action(async (nodeId: string, options: AccessOptions, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const current = await owner.api(cloud).access(nodeId);
      const changes =
        options.clear || options.allowIp || options.allowOrigin || options.refuseMethod || options.rate !== undefined || options.maxAnswer !== undefined;
      const access = changes ? (await owner.api(cloud).setAccess(nodeId, nextRules(current, options))).access : current;
      if (ctx.output.json) return printJson(ctx.output, access);
      printAccess(ctx, access);
      if (changes) note(ctx.output, 'Every node-proxy applies them within a second.');
    });

  const credentials = nodes
    .command('credentials')
    .description(
      noun === 'node'
        ? "the node's named credentials: Basic (user and password) or URL tokens (not for a jwt node, which takes your client access token)"
        : "the pool's own named credentials: Basic (user and password) or URL tokens",
    );
  credentials
    .command('create')
    .description('add a named credential, Basic or with --token a URL token; its secret is shown once, with lines ready to paste, and kept for cloud rpc')
    .argument(idArgument)
    .argument('<name>', 'your name for it, e.g. the app that will use it')
    .option('--token', 'a URL token (https://…/<token>), which clients take as pasted, instead of a Basic user and password')
    .action(async (nodeId: string, name: string, options: { token?: boolean }, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const created = await owner.api(cloud).createCredential(nodeId, { name, kind: options.token ? 'token' : 'basic' });
      ctx.saveNodeCredentials(nodeId, kept(created));
      await showSecret(ctx, owner.api(cloud), nodeId, created);
    });
  credentials
    .command('rotate')
    .description(
      'a new secret for a credential, by id or name (same id, name and kind; same user for Basic): the old one is refused within a second; shown once and kept for cloud rpc',
    )
    .argument(idArgument)
    .argument('<credential>', 'its id (cred-...) or its name')
    .action(async (nodeId: string, credential: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const target = await findCredential(owner, cloud, nodeId, credential);
      const rotated = await owner.api(cloud).rotateCredential(nodeId, target.id);
      // Keep the new secret when this machine kept the old one of the same credential, or none.
      const saved = ctx.nodeCredentials(nodeId);
      const same = !saved || ('token' in saved ? saved.id === rotated.id : rotated.kind === 'basic' && saved.user === rotated.nodeUser);
      if (same) ctx.saveNodeCredentials(nodeId, kept(rotated));
      await showSecret(ctx, owner.api(cloud), nodeId, rotated, same);
    });
  credentials
    .command('list')
    .description(`the ${noun}'s credentials, oldest first (never their passwords)`)
    .argument(idArgument)
    .action(async (nodeId: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const listed = await owner.api(ctx.cloud()).credentials(nodeId);
      if (ctx.output.json) return printJson(ctx.output, listed);
      printCredentials(ctx, listed);
    });
  credentials
    .command('remove')
    .description('revoke one credential, by id or name: it stops working within a second, the others go on')
    .argument(idArgument)
    .argument('<credential>', 'its id (cred-...) or its name')
    .action(async (nodeId: string, credential: string, _options: unknown, command: Command) => {
      const ctx = contextOf(command);
      const cloud = ctx.cloud();
      const target = await findCredential(owner, cloud, nodeId, credential);
      const left = await owner.api(cloud).removeCredential(nodeId, target.id);
      if (ctx.output.json) return printJson(ctx.output, left);
      note(ctx.output, `Revoked ${target.name} (${target.id}).`);
      printCredentials(ctx, left);
    });
}

/** A credential of the node (or pool) by id, or else by name; a usage error naming the list command otherwise. */
async function findCredential(owner: RulesOwner, cloud: CloudClient, nodeId: string, credential: string): Promise<NodeCredential> {
  const listed = await owner.api(cloud).credentials(nodeId);
  const target = listed.find((each) => each.id === credential) ?? listed.find((each) => each.name === credential);
  if (!target) throw new UsageError(`${owner.noun} ${nodeId} has no credential ${credential}; see cloud ${owner.noun}s credentials list ${nodeId}`);
  return target;
}

const kept = (credential: NewNodeCredential) =>
  credential.kind === 'token' ? { id: credential.id, token: credential.token } : { user: credential.nodeUser, password: credential.nodePass };

/** A new or rotated credential with its secret, once, and the lines ready to paste with it (also in --json, as readyLines). */
async function showSecret(ctx: Context, api: RulesApi, nodeId: string, credential: NewNodeCredential, keptHere = true): Promise<void> {
  const node = await api.get(nodeId);
  const lines = linesFor(
    ctx,
    node,
    credential.kind === 'token' ? { kind: 'token', urls: credential.urls } : { kind: 'basic', user: credential.nodeUser, password: credential.nodePass },
  );
  if (ctx.output.json) return printJson(ctx.output, { ...credential, readyLines: lines });
  const secret: Array<[string, string | undefined]> =
    credential.kind === 'token'
      ? [
          ['Token', credential.token],
          ['JSON-RPC', credential.urls.jsonRpc],
          ['REST', credential.urls.rest],
          ['WebSocket', credential.urls.webSocket],
          ['Plain HTTP (loopback)', credential.urls.plain?.jsonRpc],
        ]
      : [
          ['Node user', credential.nodeUser],
          ['Node password', credential.nodePass],
        ];
  printRecord(ctx.output, [['Id', credential.id], ['Name', credential.name], ['Kind', credential.kind === 'token' ? 'URL token' : 'Basic'], ...secret]);
  printReadyLines(ctx, lines);
  const what = credential.kind === 'token' ? 'token' : 'password';
  note(ctx.output, keptHere ? `The ${what} is shown only now; it is also kept in ${ctx.store.file} for cloud rpc.` : `The ${what} is shown only now.`);
}

function printCredentials(ctx: Context, rows: NodeCredential[]): void {
  printTable<NodeCredential>(
    ctx.output,
    rows,
    [
      { key: 'id', header: 'ID' },
      { key: 'name', header: 'NAME' },
      { key: 'kind', header: 'KIND', format: (kind) => (kind === 'token' ? 'URL token' : 'Basic') },
      { key: 'nodeUser', header: 'NODE USER' },
      { key: 'createdAt', header: 'CREATED' },
    ],
    'No credentials.',
  );
}
