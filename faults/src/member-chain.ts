// A pool member's chain read and changed straight at the node (its own internal login), never
// through the proxy: the head, the block hash at a height, blocks mined on it alone, and a reorg.
import { internalRpc } from './node-internal';
import type { Platform } from './platform';
import type { PoolFamily } from './pools';

/** The coinbase to an anyone-can-spend script, as the local driver's miner does (the nodes have no wallet). */
const OP_TRUE = 'raw(51)';
/**
 * Another anyone-can-spend script (OP_2) for the blocks of a reorg: mined the same second on the
 * same parent with the same coinbase, a block would be the very one invalidated, and refused.
 */
const OP_2 = 'raw(52)';

export const hex = (n: number) => `0x${n.toString(16)}`;

/** The read of the block hash at `height`, the same through the pool and at the node. */
export function hashCall(family: PoolFamily, height: number): [string, unknown[]] {
  return family === 'ethereum' ? ['eth_getBlockByNumber', [hex(height), false]] : ['getblockhash', [height]];
}

/** The hash in `hashCall`'s result; undefined when there is no block there (null). */
export function hashIn(family: PoolFamily, result: unknown): string | undefined {
  if (family === 'bitcoin') return typeof result === 'string' ? result : undefined;
  const hash = (result as { hash?: unknown } | null)?.hash;
  return typeof hash === 'string' ? hash : undefined;
}

export async function headOf(platform: Platform, family: PoolFamily, nodeId: string): Promise<number> {
  return family === 'ethereum'
    ? Number(await internalRpc<string>(platform, nodeId, 'eth_blockNumber'))
    : internalRpc<number>(platform, nodeId, 'getblockcount');
}

export async function hashAt(platform: Platform, family: PoolFamily, nodeId: string, height: number): Promise<string | undefined> {
  const [method, params] = hashCall(family, height);
  return hashIn(family, await internalRpc(platform, nodeId, method, params));
}

/** Mines `count` blocks on this node alone. */
export async function mine(platform: Platform, family: PoolFamily, nodeId: string, count: number, coinbase = OP_TRUE): Promise<void> {
  if (count <= 0) return;
  if (family === 'ethereum') await internalRpc(platform, nodeId, 'anvil_mine', [hex(count)]);
  else await internalRpc(platform, nodeId, 'generatetodescriptor', [count, coinbase], 60_000);
}

/**
 * Replaces the node's last `depth` blocks with others (new hashes at those heights): anvil's
 * `anvil_reorg`; on litecoind `invalidateblock` of the first of them and as many blocks mined again,
 * plus one so the new branch is the longer. Answers the first height replaced.
 */
export async function reorg(platform: Platform, family: PoolFamily, nodeId: string, depth: number): Promise<number> {
  const head = await headOf(platform, family, nodeId);
  const forkHeight = head - depth + 1;
  if (family === 'ethereum') {
    await internalRpc(platform, nodeId, 'anvil_reorg', [depth, []]);
  } else {
    await internalRpc(platform, nodeId, 'invalidateblock', [await hashAt(platform, family, nodeId, forkHeight)]);
    await mine(platform, family, nodeId, depth + 1, OP_2);
  }
  return forkHeight;
}
