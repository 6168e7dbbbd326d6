import type { ImageDefinition } from '@cloud/chains';
import type { SyncStatus } from '../data-access/node-record';
import { callJsonRpc, NodeAnswerError, type RpcCall, type RpcTarget } from './json-rpc';

type Family = ImageDefinition['family'];

/** Asks a running node how far it is with its network; each call gives up after `timeoutMs`. */
export type SyncReader = (rpc: RpcTarget, timeoutMs?: number) => Promise<SyncStatus>;

/**
 * The sync reader of a node of `family`. `ownChain`: the node makes its own chain (a dev chain
 * nobody else mines), so it has nothing to catch up with: a fresh regtest daemon reports initial
 * block download until its first block, which is not syncing.
 */
export function syncReader(family: Family, ownChain: boolean): SyncReader {
  const read = READERS[family];
  return async (rpc, timeoutMs = DEFAULT_TIMEOUT_MS) => {
    const reported = await read((call) => callJsonRpc(rpc, call, timeoutMs));
    const syncing = reported.syncing && !ownChain;
    return { ...reported, syncing, progress: syncing ? clamp(reported.progress) : 1, checkedAt: new Date() };
  };
}

const DEFAULT_TIMEOUT_MS = 5_000;

type Reported = Omit<SyncStatus, 'checkedAt'>;
type Call = (call: RpcCall) => Promise<unknown>;

const READERS: Record<Family, (call: Call) => Promise<Reported>> = {
  bitcoin: readBitcoin,
  ethereum: readEthereum,
  avalanche: readAvalanche,
};

interface BlockchainInfo {
  blocks: number;
  headers: number;
  verificationprogress: number;
  initialblockdownload: boolean;
}

/**
 * A Bitcoin-family node syncs while it knows of headers beyond its blocks, or while it says it is
 * in initial block download (its tip older than -maxtipage: at start, before any peer told it of a
 * header). Progress is its blocks over its headers, capped by its own verification estimate
 * (which weighs blocks by transactions); a node that has nothing but its genesis block is at 0.
 * A node that keeps an index (-txindex) also syncs until the index has caught up with its blocks:
 * the index is built after the blocks, and until then `getrawtransaction` misses what it should find.
 */
async function readBitcoin(call: Call): Promise<Reported> {
  const info = (await call({ method: 'getblockchaininfo', params: [] })) as BlockchainInfo;
  const network = (await call({ method: 'getnetworkinfo', params: [] })) as { connections?: number };
  const indexedHeight = lowestIndexHeight(await readIndexes(call));
  const behind = info.headers > info.blocks;
  const indexing = indexedHeight !== null;
  const syncing = behind || indexing || info.initialblockdownload;
  let progress = info.verificationprogress;
  if (behind) progress = Math.min(progress, info.blocks / info.headers);
  if (indexing && info.blocks > 0) progress = Math.min(progress, indexedHeight / info.blocks);
  if (syncing && info.blocks === 0) progress = 0;
  return {
    height: info.blocks,
    bestKnownHeight: Math.max(info.headers, info.blocks),
    progress,
    peers: typeof network.connections === 'number' ? network.connections : null,
    syncing,
  };
}

interface IndexInfo {
  synced: boolean;
  best_block_height: number;
}

/** Bitcoin Core's JSON-RPC "method not found": a node from before `getindexinfo` (0.21). */
const METHOD_NOT_FOUND = -32601;

/** The node's indexes (`getindexinfo`), none when it keeps none or predates the call. */
async function readIndexes(call: Call): Promise<Record<string, IndexInfo>> {
  try {
    return (await call({ method: 'getindexinfo', params: [] })) as Record<string, IndexInfo>;
  } catch (error) {
    if (error instanceof NodeAnswerError && error.code === METHOD_NOT_FOUND) return {};
    throw error;
  }
}

/** The height the slowest unsynced index has reached, or null when every index has caught up. */
function lowestIndexHeight(indexes: Record<string, IndexInfo>): number | null {
  const behind = Object.values(indexes).filter((index) => !index.synced);
  return behind.length === 0 ? null : Math.min(...behind.map((index) => index.best_block_height));
}

/** eth_syncing is false once synced, else how far: current and highest block (hex quantities). */
async function readEthereum(call: Call): Promise<Reported> {
  const syncing = (await call({ method: 'eth_syncing', params: [] })) as false | { currentBlock: string; highestBlock: string };
  const height = Number(BigInt((await call({ method: 'eth_blockNumber', params: [] })) as string));
  const peers = await call({ method: 'net_peerCount', params: [] }).then(
    (count) => Number(BigInt(count as string)),
    () => null, // not every node answers it
  );
  if (syncing === false) return { height, bestKnownHeight: height, progress: 1, peers, syncing: false };
  const current = Number(BigInt(syncing.currentBlock));
  const highest = Number(BigInt(syncing.highestBlock));
  return { height: current, bestKnownHeight: highest, progress: highest > 0 ? current / highest : 0, peers, syncing: true };
}

/** avalanchego bootstraps each chain before it serves it; the P-chain is what a validator needs. */
async function readAvalanche(call: Call): Promise<Reported> {
  const { isBootstrapped } = (await call({ method: 'info.isBootstrapped', params: { chain: 'P' }, path: '/ext/info' })) as { isBootstrapped: boolean };
  return { height: null, bestKnownHeight: null, progress: isBootstrapped ? 1 : 0, peers: null, syncing: !isBootstrapped };
}

function clamp(progress: number): number {
  return Number.isFinite(progress) ? Math.min(Math.max(progress, 0), 1) : 0;
}
