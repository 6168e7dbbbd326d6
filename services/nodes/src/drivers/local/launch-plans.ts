import path from 'node:path';
import { nodeRpcAuthorization, nodeRpcPassword } from '@cloud/node-rpc-auth';
import { IMAGES, type ImageId } from '@cloud/chains';
import { rpcAuth } from './credentials';
import type { RpcCall, RpcTarget } from '../json-rpc';
import type { Software, SoftwareKind } from './software';
import { syncReader, type SyncReader } from '../sync-status';

/** How to start one node and talk to it once it runs. */
export interface LaunchPlan {
  command: string;
  args: string[];
  /** The node's RPC, with the credentials the proxy logs in with. */
  rpc: RpcTarget;
  /** Succeeds once the node is ready. */
  probe: RpcCall;
  /** How far the node is with its network. */
  readSync: SyncReader;
  /** Mines one block; absent when the software makes blocks itself (anvil) or the node follows its peers' chain. */
  mine?: RpcCall;
  /** Writes what the node holds in memory to disk; absent when it does so itself. */
  checkpoint?: RpcCall;
}

export interface NodeLaunch {
  id: string;
  image: ImageId;
  large: boolean;
  dataDir: string;
  port: number;
  /** Derives the node's RPC password (NODE_RPC_KEY_FILE). */
  rpcKey: Buffer;
  /** On a private dev chain (regtest), else on the image's own network. */
  dev: boolean;
  txindex: boolean;
  /** The only peers to connect to ([] for none); undefined: the network's own peer discovery. */
  peers: string[] | undefined;
  /** -prune on the image's own network; 0: no pruning. Dev chains are never pruned. */
  pruneMb: number;
  ethChainId: number;
  blockIntervalSeconds: number;
  /** A validator's staking TLS files (written by the driver before it starts the node). */
  stakingCertificate: string;
  stakingKey: string;
}

/** How much of a chain a crash may lose, at most. */
export const CHECKPOINT_SECONDS = 5;

// The coinbase goes to an anyone-can-spend script (OP_TRUE), so a user can spend the mined coins.
const MINE_TO_OP_TRUE: RpcCall = { method: 'generatetodescriptor', params: [1, 'raw(51)'] };

// Bitcoin Core keeps its block index in memory for up to an hour; without this a SIGKILL loses
// every block since. `gettxoutsetinfo` flushes first ("none" skips hashing the UTXO set).
const FLUSH: RpcCall = { method: 'gettxoutsetinfo', params: ['none'] };

interface BitcoinDialect {
  mine: RpcCall;
  checkpoint?: RpcCall;
  /** Arguments of a dev chain (regtest) it mines itself; a dev chain with peers follows theirs as they made it. */
  ownChainArgs(image: ImageId): string[];
}

// The node log is node.log; a daemon's own debug.log would grow unrotated beside it.
const REAL_DAEMON_ARGS = ['-nodebuglogfile'];

const BITCOIN_DIALECTS: Record<Exclude<SoftwareKind, 'anvil' | 'avalanchego'>, BitcoinDialect> = {
  'bitcoin-core': { mine: MINE_TO_OP_TRUE, checkpoint: FLUSH, ownChainArgs: () => [] },
  'litecoin-core': {
    mine: MINE_TO_OP_TRUE,
    checkpoint: FLUSH,
    // MWEB activates at regtest height 432, and from then on a block needs a HogEx transaction
    // that a node without a wallet cannot make: mining stops (bad-txns-vin-empty). Giving it start
    // and timeout heights out of reach keeps it dormant (all five fields: with three, the heights
    // are left uninitialised).
    ownChainArgs: () => ['-vbparams=mweb:0:0:2147483647:2147483647'],
  },
  'bitcoin-cash-node': {
    // BCHN has no generatetodescriptor; this is P2SH(OP_TRUE) as a regtest CashAddr.
    mine: { method: 'generatetoaddress', params: [1, 'bchreg:prdpw30fk4ym6zl6rftfjuw806arpn26fveknc0qmt'] },
    // Its gettxoutsetinfo takes no arguments.
    checkpoint: { method: 'gettxoutsetinfo', params: [] },
    ownChainArgs: () => [],
  },
  'dev-chain': { mine: MINE_TO_OP_TRUE, ownChainArgs: (image) => [`-chain=${IMAGES[image].chain}`] },
};

export function launchPlan(software: Software, node: NodeLaunch): LaunchPlan {
  const rpc: RpcTarget = { url: `http://127.0.0.1:${node.port}`, authorization: nodeRpcAuthorization(node.rpcKey, node.id) };
  if (IMAGES[node.image].family === 'avalanche') {
    return {
      command: software.command,
      // avalanchego's own flags; the dev chain's avalanche mode takes the same ones.
      args: [
        ...software.baseArgs,
        ...(software.kind === 'dev-chain' ? ['-chain=avalanche'] : []),
        `--network-id=${IMAGES[node.image].network}`,
        ...['--http-host=127.0.0.1', `--http-port=${node.port}`, '--http-allowed-hosts=*'],
        `--staking-tls-cert-file=${node.stakingCertificate}`,
        `--staking-tls-key-file=${node.stakingKey}`,
        `--data-dir=${node.dataDir}`,
      ],
      // avalanchego has no RPC authentication: it ignores the header, and only the loopback reaches it.
      rpc,
      // Answers while the node still bootstraps, as the API does; the node's health says the rest.
      probe: { method: 'info.getNodeID', params: {}, path: '/ext/info' },
      readSync: syncReader('avalanche', software.kind === 'dev-chain'),
    };
  }
  if (software.kind === 'anvil') {
    return {
      command: software.command,
      args: [
        ...software.baseArgs,
        ...['--host', '127.0.0.1', '--port', String(node.port), '--chain-id', String(node.ethChainId)],
        ...['--block-time', String(node.blockIntervalSeconds)],
        // Its dev accounts from a mnemonic made at random and never shown (the log redacts it):
        // anvil's default "test test … junk" keys are public, so anyone could spend the node's
        // funded accounts with eth_sendRawTransaction.
        '--mnemonic-random',
        // --state loads the file at start and dumps to it at exit; --state-interval also dumps
        // while running, so a SIGKILL keeps the chain up to the last dump.
        ...['--state', path.join(node.dataDir, 'anvil-state.json'), '--state-interval', String(CHECKPOINT_SECONDS)],
        // Historical states spill here rather than into a temporary directory outside the node's.
        ...['--cache-path', path.join(node.dataDir, 'cache')],
      ],
      // anvil has no RPC authentication: it ignores the header, and only the loopback reaches it.
      rpc,
      probe: { method: 'eth_blockNumber', params: [] },
      // anvil's chain is its own.
      readSync: syncReader('ethereum', true),
    };
  }
  if (software.kind === 'avalanchego') throw new Error(`avalanchego cannot run ${node.image} nodes`);
  if (software.kind === 'dev-chain' && !node.dev) throw new Error(`the dev chain cannot run ${node.image} nodes on ${IMAGES[node.image].network}`);
  const dialect = BITCOIN_DIALECTS[software.kind];
  // A dev chain without peers is the node's own: it mines it. With peers it follows theirs.
  const ownChain = node.dev && (node.peers === undefined || software.kind === 'dev-chain');
  return {
    command: software.command,
    args: [
      ...software.baseArgs,
      ...(node.dev ? ['-regtest', ...(ownChain ? dialect.ownChainArgs(node.image) : [])] : publicNetworkArgs(software, node)),
      `-datadir=${node.dataDir}`,
      ...['-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', `-rpcport=${node.port}`, `-rpcauth=${rpcAuth(nodeRpcPassword(node.rpcKey, node.id))}`],
      // Outbound peers only: no P2P listening socket, so two nodes of a chain never want one port.
      ...['-listen=0', '-server', '-rest', '-disablewallet', '-printtoconsole'],
      ...(software.kind === 'dev-chain' ? [] : [...REAL_DAEMON_ARGS, ...peerArgs(node.peers)]),
      ...(node.large ? ['-dbcache=1024'] : []),
      ...(node.txindex ? ['-txindex'] : []),
    ],
    rpc,
    probe: { method: 'getblockcount', params: [] },
    readSync: syncReader('bitcoin', ownChain),
    ...(ownChain ? { mine: dialect.mine, checkpoint: dialect.checkpoint } : {}),
  };
}

/** The network flag of a real daemon on the image's network, and pruning. */
function publicNetworkArgs(software: Software, node: NodeLaunch): string[] {
  const prune = node.pruneMb > 0 ? [`-prune=${node.pruneMb}`] : [];
  if (IMAGES[node.image].network === 'mainnet') return prune;
  return [testnetFlag(software), ...prune];
}

/**
 * testnet4 where the software has it: Bitcoin Core from version 28, Bitcoin Cash Node (all
 * releases we run); older Bitcoin Core runs testnet3. Litecoin has no testnet image here.
 */
export function testnetFlag(software: Software): string {
  if (software.kind === 'bitcoin-core') return majorVersion(software.label) >= 28 ? '-testnet4' : '-testnet';
  return '-testnet4';
}

/** `-connect` to each peer (and to none: `-connect=0`); nothing leaves discovery (DNS seeds) on. */
function peerArgs(peers: string[] | undefined): string[] {
  if (peers === undefined) return [];
  return peers.length === 0 ? ['-connect=0'] : peers.map((peer) => `-connect=${peer}`);
}

function majorVersion(label: string | undefined): number {
  return Number(/-(\d+)\.\d+/.exec(label ?? '')?.[1] ?? 0);
}
