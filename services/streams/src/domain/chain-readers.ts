import { NodeReadError, type NodeRpc } from '../data-access/node-rpc.client';
import type { StreamFamily } from './node-routes';
import type { BlockRef } from './stream';

/** A block's header, as every stream kind needs it. */
export interface BlockHeader {
  height: number;
  hash: string;
  /** null for the genesis block. */
  parentHash: string | null;
  /** The block's own time, ISO 8601 UTC. */
  time: string;
  transactionCount: number;
}

export interface EthereumTransaction {
  hash: string;
  from: string;
  to: string | null;
  /** Wei, decimal. */
  value: string;
}

export interface EthereumLog {
  transactionHash: string;
  address: string;
  topics: string[];
  data: string;
  logIndex: number;
}

export interface BitcoinTransaction {
  txid: string;
  /** The outputs each input spends (none for a coinbase). */
  inputs: Array<{ txid: string; vout: number }>;
  /** `address` null: a script that pays no address (OP_RETURN, bare multisig…); value in coins, 8 decimals. */
  outputs: Array<{ vout: number; address: string | null; value: string }>;
}

/** What matching reads of a block's transactions, by family. */
export type BlockContent =
  { family: 'ethereum'; transactions: EthereumTransaction[]; logs: EthereumLog[] } | { family: 'bitcoin'; transactions: BitcoinTransaction[] };

export interface ChainBlock extends BlockHeader {
  /** Present when asked for (`transactions` streams). */
  content?: BlockContent;
}

export interface BlockReadOptions {
  /** Read the transactions (and, on eth, the logs of `logAddresses`). */
  transactions: boolean;
  /** eth: the contracts whose logs are read (lower-case). */
  logAddresses?: string[];
  /** eth: a log must have one of these as topic 0; empty: any. */
  topics?: string[];
}

/** How a stream reads one family's chain. */
export interface ChainReader {
  /** The node's best block. */
  head(rpc: NodeRpc): Promise<BlockRef>;
  /** The hash of the node's block at `height` on its current chain; null when it has none there (yet). */
  hashAt(rpc: NodeRpc, height: number): Promise<string | null>;
  /** The node's block at `height`; a NodeReadError when it has none there. */
  block(rpc: NodeRpc, height: number, options: BlockReadOptions): Promise<ChainBlock>;
}

const hex = (n: number) => `0x${n.toString(16)}`;
const isoOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();

interface EthereumBlockAnswer {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: Array<string | { hash: string; from: string; to: string | null; value: string }>;
}

interface EthereumLogAnswer {
  transactionHash: string;
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  removed?: boolean;
}

const ZERO_HASH = `0x${'0'.repeat(64)}`;

async function ethereumBlock(rpc: NodeRpc, tag: string, full: boolean): Promise<EthereumBlockAnswer | null> {
  return (await rpc('eth_getBlockByNumber', [tag, full])) as EthereumBlockAnswer | null;
}

export const ethereumReader: ChainReader = {
  async head(rpc) {
    const block = await ethereumBlock(rpc, 'latest', false);
    if (!block) throw new NodeReadError('eth_getBlockByNumber', 'the node has no latest block');
    return { height: Number.parseInt(block.number, 16), hash: block.hash };
  },
  async hashAt(rpc, height) {
    return (await ethereumBlock(rpc, hex(height), false))?.hash ?? null;
  },
  async block(rpc, height, options) {
    const block = await ethereumBlock(rpc, hex(height), options.transactions);
    if (!block) throw new NodeReadError('eth_getBlockByNumber', `the node has no block ${height}`);
    const header: ChainBlock = {
      height: Number.parseInt(block.number, 16),
      hash: block.hash,
      parentHash: height === 0 || block.parentHash === ZERO_HASH ? null : block.parentHash,
      time: isoOfSeconds(Number.parseInt(block.timestamp, 16)),
      transactionCount: block.transactions.length,
    };
    if (!options.transactions) return header;
    const transactions = block.transactions.map((tx) => {
      if (typeof tx === 'string') throw new NodeReadError('eth_getBlockByNumber', 'transactions came as hashes');
      return { hash: tx.hash, from: tx.from.toLowerCase(), to: tx.to?.toLowerCase() ?? null, value: BigInt(tx.value).toString() };
    });
    return { ...header, content: { family: 'ethereum', transactions, logs: await ethereumLogs(rpc, block.hash, options) } };
  },
};

/** The block's logs of the watched contracts (by its hash, so they are the block's read, whatever a reorg did since). */
async function ethereumLogs(rpc: NodeRpc, blockHash: string, options: BlockReadOptions): Promise<EthereumLog[]> {
  if (!options.logAddresses?.length) return [];
  const filter = { blockHash, address: options.logAddresses, ...(options.topics?.length ? { topics: [options.topics] } : {}) };
  const logs = (await rpc('eth_getLogs', [filter])) as EthereumLogAnswer[];
  return logs
    .filter((log) => !log.removed)
    .map((log) => ({
      transactionHash: log.transactionHash,
      address: log.address.toLowerCase(),
      topics: log.topics.map((topic) => topic.toLowerCase()),
      data: log.data,
      logIndex: Number.parseInt(log.logIndex, 16),
    }));
}

interface BitcoinHeaderAnswer {
  height: number;
  hash: string;
  previousblockhash?: string;
  time: number;
  nTx: number;
}

interface BitcoinBlockAnswer extends BitcoinHeaderAnswer {
  tx: Array<{
    txid: string;
    vin: Array<{ txid?: string; vout?: number; coinbase?: string }>;
    // `address` from Bitcoin Core 22, `addresses` before (Litecoin Core 0.21).
    vout: Array<{ n: number; value: number; scriptPubKey: { address?: string; addresses?: string[] } }>;
  }>;
}

/** A coin amount as the node's JSON number, with the 8 decimals of a satoshi (toFixed is exact at these magnitudes). */
export const coinsOf = (value: number): string => value.toFixed(8);

export const bitcoinReader: ChainReader = {
  async head(rpc) {
    // One call, so height and hash are of the same block.
    const info = (await rpc('getblockchaininfo', [])) as { blocks: number; bestblockhash: string };
    return { height: info.blocks, hash: info.bestblockhash };
  },
  async hashAt(rpc, height) {
    try {
      return (await rpc('getblockhash', [height])) as string;
    } catch (error) {
      // -8: "Block height out of range".
      if (error instanceof NodeReadError && error.reason.includes('-8')) return null;
      throw error;
    }
  },
  async block(rpc, height, options) {
    const hash = (await rpc('getblockhash', [height])) as string;
    if (!options.transactions) return headerOf((await rpc('getblockheader', [hash, true])) as BitcoinHeaderAnswer);
    const block = (await rpc('getblock', [hash, 2])) as BitcoinBlockAnswer;
    const transactions = block.tx.map((tx) => ({
      txid: tx.txid,
      inputs: tx.vin.flatMap((input) => (input.txid === undefined || input.vout === undefined ? [] : [{ txid: input.txid, vout: input.vout }])),
      outputs: tx.vout.map((output) => ({
        vout: output.n,
        address: output.scriptPubKey.address ?? (output.scriptPubKey.addresses?.length === 1 ? output.scriptPubKey.addresses[0]! : null),
        value: coinsOf(output.value),
      })),
    }));
    return { ...headerOf(block), content: { family: 'bitcoin', transactions } };
  },
};

function headerOf(header: BitcoinHeaderAnswer): ChainBlock {
  return {
    height: header.height,
    hash: header.hash,
    parentHash: header.previousblockhash ?? null,
    time: isoOfSeconds(header.time),
    transactionCount: header.nTx,
  };
}

export const CHAIN_READERS: Record<StreamFamily, ChainReader> = { ethereum: ethereumReader, bitcoin: bitcoinReader };
