import type { Family } from '../routing/interfaces';
import type { Head } from './head-source';
import { findMembers, memberText } from './json-members';

/**
 * When a method's answer may be kept, declared once per method, in `CACHE_RULES` below:
 * - `forever`: it never changes on a node's chain (the chain's id);
 * - `head`: the proxy answers it from the tracked head (`answerFromHead`), fresh enough;
 * - `final`: it belongs to one block, and is kept once that block is final (at or below the head
 *   less the finality depth), so that no reorg the depth allows for can change it. The block is
 *   named by the call's params (`heightInParams`: a number at or below the final height, else the
 *   call is not cacheable and goes to the node as any other), or found in the answer
 *   (`heightInAnswer`, or `blockHashInAnswer` for a transaction that names only its block's hash).
 *   `confirmations`: the answer holds the node's count of them, rewritten from the head on serving.
 */
export type CacheRule =
  | { keep: 'forever' }
  | { keep: 'head'; answerFromHead: (head: Head) => string }
  | {
      keep: 'final';
      /** The block the params name: its height, `answer` when only the answer tells, undefined when the call names no final-able block (`latest`). */
      heightInParams?: (params: readonly unknown[]) => number | 'answer' | undefined;
      /** The height of the block the answer (its `result` JSON) belongs to, undefined when it tells none (null, pending). */
      heightInAnswer?: (result: string) => number | undefined;
      /** The hash of the block the answer belongs to, whose height the cache then finds out. */
      blockHashInAnswer?: (result: string) => string | undefined;
      confirmations?: true;
    };

/** A block number the JSON-RPC of Ethereum takes: hex quantity, `earliest`, or EIP-1898's `{blockNumber}`; undefined for tags and hashes. */
export function ethBlockNumber(value: unknown): number | undefined {
  if (value === 'earliest') return 0;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    return keys.length === 1 && keys[0] === 'blockNumber' ? ethBlockNumber((value as { blockNumber: unknown }).blockNumber) : undefined;
  }
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,13}$/.test(value)) return undefined;
  return Number.parseInt(value.slice(2), 16);
}

/** A hex quantity written as a JSON string (`"0x1b4"`), as Ethereum answers write heights. */
function hexQuantity(json: string | undefined): number | undefined {
  if (json === undefined || json.length < 4 || json.length > 17 || !json.startsWith('"0x')) return undefined;
  const height = Number.parseInt(json.slice(3, -1), 16);
  return Number.isSafeInteger(height) ? height : undefined;
}

/** A non-negative integer written as JSON (a Bitcoin answer's `height`). */
function plainHeight(json: string | undefined): number | undefined {
  if (json === undefined || !/^\d{1,15}$/.test(json)) return undefined;
  return Number(json);
}

/** The block `params[index]` names, for methods whose block is one of their params. */
const ethBlockAt =
  (index: number) =>
  (params: readonly unknown[]): number | undefined =>
    ethBlockNumber(params[index]);

const ETH_FINAL_BY_PARAM = { keep: 'final' } as const;

/** The Ethereum methods, by their names as the nodes spell them: a node answers another casing with an error, which the cache must not hide. */
const ETHEREUM: Record<string, CacheRule> = {
  eth_chainId: { keep: 'forever' },
  net_version: { keep: 'forever' },
  eth_blockNumber: { keep: 'head', answerFromHead: (head) => `"0x${head.height.toString(16)}"` },
  eth_getBlockByHash: { keep: 'final', heightInParams: () => 'answer', heightInAnswer: (result) => hexQuantity(memberText(result, 'number')) },
  eth_getTransactionByHash: { keep: 'final', heightInParams: () => 'answer', heightInAnswer: (result) => hexQuantity(memberText(result, 'blockNumber')) },
  eth_getTransactionReceipt: { keep: 'final', heightInParams: () => 'answer', heightInAnswer: (result) => hexQuantity(memberText(result, 'blockNumber')) },
  eth_getBlockReceipts: {
    keep: 'final',
    // By number, or by hash (then the first receipt tells the block; a block without any is not kept).
    heightInParams: (params) => ethBlockNumber(params[0]) ?? (isHash(params[0]) ? 'answer' : undefined),
    heightInAnswer: (result) => (result.startsWith('[{') ? hexQuantity(memberText(result, 'blockNumber', 1)) : undefined),
  },
  eth_getBlockByNumber: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(0) },
  eth_getBlockTransactionCountByNumber: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(0) },
  eth_getBalance: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(1) },
  eth_getCode: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(1) },
  eth_getTransactionCount: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(1) },
  eth_call: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(1) },
  eth_getStorageAt: { ...ETH_FINAL_BY_PARAM, heightInParams: ethBlockAt(2) },
  eth_getLogs: { ...ETH_FINAL_BY_PARAM, heightInParams: logsRangeEnd },
};

/** Logs of a range of numbered blocks: the range's end is the block a reorg must not reach. */
function logsRangeEnd(params: readonly unknown[]): number | undefined {
  const filter = params[0];
  if (params.length !== 1 || typeof filter !== 'object' || filter === null || 'blockHash' in filter) return undefined;
  const { fromBlock, toBlock } = filter as { fromBlock?: unknown; toBlock?: unknown };
  const from = ethBlockNumber(fromBlock);
  const to = ethBlockNumber(toBlock);
  return from === undefined || to === undefined || from > to ? undefined : to;
}

function isHash(value: unknown): boolean {
  return typeof value === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(value);
}

/** A Bitcoin answer's top-level `height` (a block's, a header's). */
const heightMember = (result: string) => plainHeight(memberText(result, 'height'));

/** The Bitcoin-family methods. */
const BITCOIN: Record<string, CacheRule> = {
  getblockcount: { keep: 'head', answerFromHead: (head) => String(head.height) },
  getbestblockhash: { keep: 'head', answerFromHead: (head) => JSON.stringify(head.hash) },
  getblockhash: {
    keep: 'final',
    heightInParams: (params) => (params.length === 1 && Number.isSafeInteger(params[0]) && (params[0] as number) >= 0 ? (params[0] as number) : undefined),
  },
  // Verbosity 0 answers the block's hex: it tells no height, and is not kept.
  getblock: { keep: 'final', heightInParams: (params) => (isHash(params[0]) ? 'answer' : undefined), heightInAnswer: heightMember, confirmations: true },
  getblockheader: { keep: 'final', heightInParams: (params) => (isHash(params[0]) ? 'answer' : undefined), heightInAnswer: heightMember, confirmations: true },
  // Verbose only: the plain answer (hex) says nothing of its block. A mempool transaction has no blockhash and is not kept;
  // one looked up in a block off the best chain (the third param) has no confirmations worth keeping.
  getrawtransaction: {
    keep: 'final',
    heightInParams: (params) =>
      isHash(params[0]) && isVerbose(params[1]) && (params.length === 2 || (params.length === 3 && isHash(params[2]))) ? 'answer' : undefined,
    blockHashInAnswer: (result) => blockHash(memberText(result, 'blockhash')),
    confirmations: true,
  },
};

/** getrawtransaction's verbose flag: `true`, or a verbosity of 1 or 2 (later Bitcoin Core). */
function isVerbose(value: unknown): boolean {
  return value === true || value === 1 || value === 2;
}

function blockHash(json: string | undefined): string | undefined {
  return json !== undefined && /^"[0-9a-f]{64}"$/.test(json) ? json.slice(1, -1) : undefined;
}

/** Each family's rules; a method not listed is never cached. Avalanche nodes are not cached (their paths hold several chains). */
export const CACHE_RULES: Record<Family, ReadonlyMap<string, CacheRule>> = {
  ethereum: new Map(Object.entries(ETHEREUM)),
  bitcoin: new Map(Object.entries(BITCOIN)),
  avalanche: new Map(),
};

/** Blocks below the head after which a block is final: the family's setting, or the dev chains'. */
export interface FinalityDepths {
  PROXY_FINALITY_BLOCKS_BITCOIN: number;
  PROXY_FINALITY_BLOCKS_ETHEREUM: number;
  PROXY_FINALITY_BLOCKS_DEV: number;
}

export function finalityDepth(depths: FinalityDepths, family: Family, dev: boolean | undefined): number {
  if (dev === true) return depths.PROXY_FINALITY_BLOCKS_DEV;
  return family === 'bitcoin' ? depths.PROXY_FINALITY_BLOCKS_BITCOIN : depths.PROXY_FINALITY_BLOCKS_ETHEREUM;
}

/** Whether a block at `height` is final under `head`: `depth` blocks or more are on top of it. */
export function isFinal(height: number, head: Head, depth: number): boolean {
  return height <= head.height - depth;
}

/**
 * The cache key of a call: the endpoint (a node's or a pool's id), the family, the method as
 * sent (nodes tell names apart by case) and its params as the proxy's canonical JSON text; never
 * the call's id.
 */
export function cacheKey(endpoint: string, family: Family, method: string, paramsText: string): string {
  return `${endpoint}\n${family}\n${method}\n${paramsText}`;
}

/**
 * Where a Bitcoin answer's top-level `confirmations` number is in its `result` text, so serving
 * it can put the head's count there without parsing it again. Undefined when it has none.
 */
export function confirmationsSpan(result: string): { start: number; end: number } | undefined {
  const span = findMembers(result, ['confirmations']).get('confirmations');
  return span && /^\d+$/.test(result.slice(span.start, span.end)) ? span : undefined;
}

/** The result with its confirmations counted from `head`: as many as the node would say now. */
export function withConfirmations(result: string, span: { start: number; end: number }, height: number, head: Head): string {
  return result.slice(0, span.start) + String(head.height - height + 1) + result.slice(span.end);
}
