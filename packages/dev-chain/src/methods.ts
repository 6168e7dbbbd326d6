import { difficulty, serializeHeader } from './block';
import type { Chain, ChainEntry } from './chain';
import type { Execute, Params } from './rpc';
import { RPC_INVALID_ADDRESS_OR_KEY, RPC_INVALID_PARAMETER, RPC_METHOD_NOT_FOUND, RPC_MISC_ERROR, RpcError } from './rpc';
import { DEV_CHAIN_NAME, DEV_CHAIN_VERSION, devChainSubversion } from './version';
import { blockView, chainInfoView, headerView } from './views';

export interface MethodContext {
  chain: Chain;
  startedAt: number;
  sizeOnDisk(): number;
  /** Shuts the node down once the current reply is sent. */
  requestStop(): void;
}

interface Arg {
  name: string;
  type: 'string' | 'numeric' | 'boolean';
  /** Present for an optional argument: how Core's help words its default. */
  default?: string;
  description: string;
}

interface Method {
  category: 'Blockchain' | 'Control' | 'Generating' | 'Network';
  args: Arg[];
  description: string;
  run(params: unknown[], context: MethodContext): unknown;
}

// UniValue's getters, whose std::runtime_error Core reports as -1 with these very words.
function int(value: unknown): number {
  if (typeof value !== 'number') throw new RpcError(RPC_MISC_ERROR, 'JSON value is not an integer as expected');
  if (!Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 31) throw new RpcError(RPC_MISC_ERROR, 'JSON integer out of range');
  return value;
}

function str(value: unknown): string {
  if (typeof value !== 'string') throw new RpcError(RPC_MISC_ERROR, 'JSON value is not a string as expected');
  return value;
}

function bool(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new RpcError(RPC_MISC_ERROR, 'JSON value is not a boolean as expected');
  return value;
}

function optional<T>(value: unknown, parse: (value: unknown) => T, fallback: T): T {
  return value === undefined || value === null ? fallback : parse(value);
}

/** Core's ParseHashV, then the block lookup. */
function blockParam(chain: Chain, value: unknown, name: string): ChainEntry {
  const hex = str(value);
  if (hex.length !== 64) throw new RpcError(RPC_INVALID_PARAMETER, `${name} must be of length 64 (not ${hex.length}, for '${hex}')`);
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new RpcError(RPC_INVALID_PARAMETER, `${name} must be hexadecimal string (not '${hex}')`);
  const entry = chain.get(hex);
  if (!entry) throw new RpcError(RPC_INVALID_ADDRESS_OR_KEY, 'Block not found');
  return entry;
}

function generate(context: MethodContext, params: unknown[], isValidTarget: (target: string) => boolean, invalid: string): string[] {
  const count = int(params[0]);
  const maxTries = optional(params[2], int, 1_000_000);
  if (!isValidTarget(str(params[1]))) throw new RpcError(RPC_INVALID_ADDRESS_OR_KEY, invalid);
  // Every block pays OP_TRUE, whatever the descriptor or address: there is no wallet to spend from it.
  return context.chain.mine(count, maxTries).map((entry) => entry.hash);
}

/** Core's CLIENT_VERSION encoding: 1.2.3 → 1020300. */
function clientVersion(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return major * 1_000_000 + minor * 10_000 + patch * 100;
}

const hashArg = (description: string): Arg => ({ name: 'blockhash', type: 'string', description });
const generateArgs = (target: Arg): Arg[] => [
  { name: target.name === 'address' ? 'nblocks' : 'num_blocks', type: 'numeric', description: 'How many blocks are generated immediately.' },
  target,
  { name: 'maxtries', type: 'numeric', default: '1000000', description: 'How many iterations to try.' },
];

/** The node's methods: Core's names, arguments and errors. Wallet methods are absent, as with -disablewallet. */
const METHODS: Record<string, Method> = {
  getbestblockhash: {
    category: 'Blockchain',
    args: [],
    description: 'Returns the hash of the best (tip) block in the most-work fully-validated chain.',
    run: (_params, { chain }) => chain.tip.hash,
  },
  getblock: {
    category: 'Blockchain',
    args: [
      hashArg('The block hash'),
      {
        name: 'verbosity',
        type: 'numeric',
        default: '1',
        description: '0 for hex-encoded data, 1 for a json object, and 2 for json object with transaction data',
      },
    ],
    description:
      "If verbosity is 0, returns a string that is serialized, hex-encoded data for block 'hash'.\nIf verbosity is 1, returns an Object with information about block <hash>.\nIf verbosity is 2, returns an Object with information about block <hash> and information about each transaction.",
    run: ([hash, verbosityParam], { chain }) => {
      const entry = blockParam(chain, hash, 'blockhash');
      // Core 0.21: a number is the verbosity, anything else must be a boolean (true = 1).
      const verbosity = optional(verbosityParam, (value) => (typeof value === 'number' ? int(value) : bool(value) ? 1 : 0), 1);
      return verbosity <= 0 ? entry.raw.toString('hex') : blockView(chain, entry, verbosity);
    },
  },
  getblockchaininfo: {
    category: 'Blockchain',
    args: [],
    description: 'Returns an object containing various state info regarding blockchain processing.',
    run: (_params, context) => chainInfoView(context.chain, context.sizeOnDisk()),
  },
  getblockcount: {
    category: 'Blockchain',
    args: [],
    description: 'Returns the height of the most-work fully-validated chain.\nThe genesis block has height 0.',
    run: (_params, { chain }) => chain.height,
  },
  getblockhash: {
    category: 'Blockchain',
    args: [{ name: 'height', type: 'numeric', description: 'The height index' }],
    description: 'Returns hash of block in best-block-chain at height provided.',
    run: ([height], { chain }) => {
      const entry = chain.at(int(height));
      if (!entry) throw new RpcError(RPC_INVALID_PARAMETER, 'Block height out of range');
      return entry.hash;
    },
  },
  getblockheader: {
    category: 'Blockchain',
    args: [
      hashArg('The block hash'),
      { name: 'verbose', type: 'boolean', default: 'true', description: 'true for a json object, false for the hex-encoded data' },
    ],
    description:
      "If verbose is false, returns a string that is serialized, hex-encoded data for blockheader 'hash'.\nIf verbose is true, returns an Object with information about blockheader <hash>.",
    run: ([hash, verbose], { chain }) => {
      const entry = blockParam(chain, hash, 'hash');
      return optional(verbose, bool, true) ? headerView(chain, entry) : serializeHeader(entry.block.header).toString('hex');
    },
  },
  getchaintips: {
    category: 'Blockchain',
    args: [],
    description: 'Return information about all known tips in the block tree, including the main chain as well as orphaned branches.',
    run: (_params, { chain }) => [{ height: chain.height, hash: chain.tip.hash, branchlen: 0, status: 'active' }],
  },
  getdifficulty: {
    category: 'Blockchain',
    args: [],
    description: 'Returns the proof-of-work difficulty as a multiple of the minimum difficulty.',
    run: (_params, { chain }) => difficulty(chain.tip.block.header.bits),
  },
  getmempoolinfo: {
    category: 'Blockchain',
    args: [],
    description: 'Returns details on the active state of the TX memory pool.',
    run: () => ({ loaded: true, size: 0, bytes: 0, usage: 0, maxmempool: 300_000_000, mempoolminfee: 0.00001, minrelaytxfee: 0.00001, unbroadcastcount: 0 }),
  },
  getrawmempool: {
    category: 'Blockchain',
    args: [
      { name: 'verbose', type: 'boolean', default: 'false', description: 'True for a json object, false for array of transaction ids' },
      {
        name: 'mempool_sequence',
        type: 'boolean',
        default: 'false',
        description: 'If verbose=false, returns a json object with transaction list and mempool sequence number attached.',
      },
    ],
    description: 'Returns all transaction ids in memory pool as a json array of string transaction ids.',
    run: ([verboseParam, sequenceParam]) => {
      const verbose = optional(verboseParam, bool, false);
      const withSequence = optional(sequenceParam, bool, false);
      if (verbose && withSequence) throw new RpcError(RPC_INVALID_PARAMETER, 'Verbose results cannot contain mempool sequence values.');
      return withSequence ? { txids: [], mempool_sequence: 1 } : verbose ? {} : [];
    },
  },
  help: {
    category: 'Control',
    args: [{ name: 'command', type: 'string', default: 'all commands', description: 'The command to get help on' }],
    description: 'List all commands, or get help for a specified command.',
    run: ([command]) => {
      if (command === undefined || command === null) return commandList();
      const name = str(command);
      const method = METHODS[name];
      return method ? helpText(name, method) : `help: unknown command: ${name}`;
    },
  },
  stop: {
    category: 'Control',
    args: [],
    description: `Request a graceful shutdown of ${DEV_CHAIN_NAME}.`,
    run: (_params, context) => {
      context.requestStop();
      return `${DEV_CHAIN_NAME} stopping`;
    },
  },
  uptime: {
    category: 'Control',
    args: [],
    description: 'Returns the total uptime of the server.',
    run: (_params, context) => Math.floor((Date.now() - context.startedAt) / 1000),
  },
  generatetoaddress: {
    category: 'Generating',
    args: generateArgs({ name: 'address', type: 'string', description: 'The address to send the newly generated coins to.' }),
    description: 'Mine blocks immediately to a specified address (before the RPC call returns)',
    run: (params, context) => generate(context, params, (address) => address !== '', 'Error: Invalid address'),
  },
  generatetodescriptor: {
    category: 'Generating',
    args: generateArgs({ name: 'descriptor', type: 'string', description: 'The descriptor to send the newly generated coins to.' }),
    description: 'Mine blocks immediately to a specified descriptor (before the RPC call returns)',
    // The empty descriptor's error is Core's own wording (it names the descriptor function, here none).
    run: (params, context) => generate(context, params, (descriptor) => descriptor !== '', ' is not a valid descriptor function'),
  },
  getnetworkinfo: {
    category: 'Network',
    args: [],
    description: 'Returns an object containing various state info regarding P2P networking.',
    // There is no P2P at all: no services, no networks, no peers, and the network is reported inactive.
    run: () => ({
      version: clientVersion(DEV_CHAIN_VERSION),
      subversion: devChainSubversion(),
      protocolversion: 70016,
      localservices: '0000000000000000',
      localservicesnames: [],
      localrelay: false,
      timeoffset: 0,
      networkactive: false,
      connections: 0,
      connections_in: 0,
      connections_out: 0,
      networks: [],
      relayfee: 0.00001,
      incrementalfee: 0.00001,
      localaddresses: [],
      warnings: '',
    }),
  },
};

function synopsis(name: string, method: Method): string {
  const show = (arg: Arg) => (arg.type === 'string' ? `"${arg.name}"` : arg.name);
  const required = method.args.filter((arg) => arg.default === undefined).map(show);
  const optionals = method.args.filter((arg) => arg.default !== undefined).map(show);
  return [name, ...required, ...(optionals.length > 0 ? [`( ${optionals.join(' ')} )`] : [])].join(' ');
}

function helpText(name: string, method: Method): string {
  const args = method.args.map(
    (arg, index) =>
      `${index + 1}. ${arg.name}    (${arg.type}, ${arg.default === undefined ? 'required' : `optional, default=${arg.default}`}) ${arg.description}`,
  );
  return `${synopsis(name, method)}\n\n${method.description}\n${args.length > 0 ? `\nArguments:\n${args.join('\n')}\n` : ''}`;
}

function commandList(): string {
  const sections = new Map<string, string[]>();
  for (const [name, method] of Object.entries(METHODS).sort(([a], [b]) => a.localeCompare(b))) {
    sections.set(method.category, [...(sections.get(method.category) ?? []), synopsis(name, method)]);
  }
  return [...sections.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, lines]) => `== ${category} ==\n${lines.join('\n')}`)
    .join('\n\n');
}

/**
 * Core's named-argument handling: each known name goes to its position, gaps filled with null;
 * an unknown name is an error.
 */
function positional(method: Method, params: Record<string, unknown>): unknown[] {
  const unknown = Object.keys(params).find((key) => !method.args.some((arg) => arg.name === key));
  if (unknown !== undefined) throw new RpcError(RPC_INVALID_PARAMETER, `Unknown named parameter ${unknown}`);
  const last = method.args.reduce((found, arg, index) => (arg.name in params ? index : found), -1);
  return method.args.slice(0, last + 1).map((arg) => (arg.name in params ? params[arg.name] : null));
}

export function createExecute(context: MethodContext): Execute {
  return (name: string, params: Params) => {
    const method = Object.hasOwn(METHODS, name) ? METHODS[name] : undefined;
    if (!method) throw new RpcError(RPC_METHOD_NOT_FOUND, 'Method not found');
    const args = Array.isArray(params) ? params : positional(method, params);
    const required = method.args.filter((arg) => arg.default === undefined).length;
    // A wrong number of arguments gets the method's help as the error, as in Core.
    if (args.length < required || args.length > method.args.length) throw new RpcError(RPC_MISC_ERROR, helpText(name, method));
    return method.run(args, context);
  };
}
