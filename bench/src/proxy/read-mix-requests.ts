/**
 * The read mix's calls (`read-mix.ts`): what a dapp front end and an indexer send a node, over a
 * history of old blocks (`history.ts`). The catalogue of distinct calls is read from the node
 * (its blocks' transactions); each load run draws from it with a seeded generator, the same
 * sequence for every target, so a cache meets the same working set behind each.
 *
 * Ethereum: 30 % `eth_blockNumber`, 10 % `eth_chainId`, 10 % `eth_getBalance` and 10 % `eth_call`
 * at an old block (one of ten accounts), 20 % `eth_getBlockByNumber(old, true)`, 10 %
 * `eth_getTransactionReceipt` (one of the first TRACKED_PER_BLOCK transactions of an old block)
 * and 10 % `eth_getLogs` of one old block. Bitcoin family: 15 % `getblockcount`, 15 %
 * `getbestblockhash`, 20 % `getblockhash(old height)`, 25 % `getblock(old hash, 2)`, 25 %
 * `getrawtransaction(old txid, true)`.
 */
import type { RpcTarget } from '@cloud/nodes';
import { rpc, rpcBatch, type History } from './history';

/** Transactions of each old block whose receipt or decoded form is asked for: the ones a front end's users look at. */
export const TRACKED_PER_BLOCK = 10;

export interface MixKind {
  /** What the calls are, for the report (e.g. "`eth_getBlockByNumber(old, true)`"). */
  label: string;
  share: number;
  /** The request bodies it draws from (one JSON-RPC call each). */
  bodies: string[];
}

export interface ReadMix {
  kinds: MixKind[];
  /** A generator of request bodies, the same sequence for the same seed. */
  stream(seed: number): () => string;
}

/** mulberry32: a small, fast, seeded generator of floats in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const body = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const hex = (value: number) => `0x${value.toString(16)}`;
const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, index) => first + index);

function mixOf(kinds: MixKind[]): ReadMix {
  const total = kinds.reduce((sum, kind) => sum + kind.share, 0);
  for (const kind of kinds) if (kind.bodies.length === 0) throw new Error(`the read mix has no calls for ${kind.label}`);
  return {
    kinds,
    stream(seed) {
      const random = seeded(seed);
      return () => {
        let pick = random() * total;
        let kind = kinds[kinds.length - 1]!;
        for (const each of kinds) {
          if (pick < each.share) {
            kind = each;
            break;
          }
          pick -= each.share;
        }
        return kind.bodies[Math.floor(random() * kind.bodies.length)]!;
      };
    },
  };
}

export async function ethereumMix(node: RpcTarget, history: History): Promise<ReadMix> {
  const contract = history.contract;
  if (!contract) throw new Error('the anvil history has no contract');
  const blocks = range(history.firstBlock, history.lastBlock);
  const accounts = (await rpc(node, 'eth_accounts')) as string[];
  const withTransactions = (await rpcBatch(
    node,
    blocks.map((block) => ({ method: 'eth_getBlockByNumber', params: [hex(block), false] })),
  )) as { transactions: string[] }[];
  const tracked = withTransactions.flatMap((block) => block.transactions.slice(0, TRACKED_PER_BLOCK));
  const balanceOf = (account: string) => `0x70a08231${account.slice(2).padStart(64, '0')}`;
  return mixOf([
    { label: '`eth_blockNumber` (head)', share: 30, bodies: [body('eth_blockNumber', [])] },
    { label: '`eth_chainId`', share: 10, bodies: [body('eth_chainId', [])] },
    {
      label: '`eth_getBalance(account, old block)`',
      share: 10,
      bodies: blocks.flatMap((block) => accounts.map((account) => body('eth_getBalance', [account, hex(block)]))),
    },
    {
      label: '`eth_call(balanceOf(account), old block)`',
      share: 10,
      bodies: blocks.flatMap((block) => accounts.map((account) => body('eth_call', [{ to: contract, data: balanceOf(account) }, hex(block)]))),
    },
    { label: '`eth_getBlockByNumber(old block, true)`', share: 20, bodies: blocks.map((block) => body('eth_getBlockByNumber', [hex(block), true])) },
    { label: '`eth_getTransactionReceipt(old transaction)`', share: 10, bodies: tracked.map((hash) => body('eth_getTransactionReceipt', [hash])) },
    {
      label: "`eth_getLogs` of one old block (the contract's)",
      share: 10,
      bodies: blocks.map((block) => body('eth_getLogs', [{ fromBlock: hex(block), toBlock: hex(block), address: contract }])),
    },
  ]);
}

export async function bitcoinMix(node: RpcTarget, history: History): Promise<ReadMix> {
  const heights = range(history.firstBlock, history.lastBlock);
  const hashes = (await rpcBatch(
    node,
    heights.map((height) => ({ method: 'getblockhash', params: [height] })),
  )) as string[];
  const blocks = (await rpcBatch(
    node,
    hashes.map((hash) => ({ method: 'getblock', params: [hash, 1] })),
  )) as { tx: string[] }[];
  // The payments, not the coinbase (which a txindex serves too, but nobody asks for).
  const tracked = blocks.flatMap((block) => block.tx.slice(1, 1 + TRACKED_PER_BLOCK));
  return mixOf([
    { label: '`getblockcount` (head)', share: 15, bodies: [body('getblockcount', [])] },
    { label: '`getbestblockhash` (head)', share: 15, bodies: [body('getbestblockhash', [])] },
    { label: '`getblockhash(old height)`', share: 20, bodies: heights.map((height) => body('getblockhash', [height])) },
    { label: '`getblock(old hash, 2)`', share: 25, bodies: hashes.map((hash) => body('getblock', [hash, 2])) },
    { label: '`getrawtransaction(old txid, true)`', share: 25, bodies: tracked.map((txid) => body('getrawtransaction', [txid, true])) },
  ]);
}
