// STAND-IN (branch i32-api): reads a node's head (no sharing between callers); the follow
// branch's domain/head-watcher.ts (i32-follow) replaces this file at merge.
import type { NodeRpc } from '../data-access/node-rpc.client';
import type { FollowTarget } from './node-routes';
import type { BlockRef } from './stream';

export class HeadWatcher {
  constructor(private readonly deps: { rpcFor(target: FollowTarget): NodeRpc; maxAgeMs: number }) {}

  async headOf(target: FollowTarget): Promise<BlockRef> {
    const rpc = this.deps.rpcFor(target);
    if (target.family === 'ethereum') {
      const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { number: string; hash: string };
      return { height: Number(block.number), hash: block.hash };
    }
    const info = (await rpc('getblockchaininfo', [])) as { blocks: number; bestblockhash: string };
    return { height: info.blocks, hash: info.bestblockhash };
  }
}
