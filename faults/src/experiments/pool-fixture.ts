// The two pools of issue 31's platform-level proof, made once per run and shared by its
// experiments: two anvil nodes and two litecoind regtest nodes of one owner each, a pool over each pair.
import type { Context } from '../experiments';
import { createPool, type Pool } from '../pools';
import { findOnPath, waitFor } from '../shell';

/** The pools' lag bound: a member more blocks behind the best member's head gets no calls. */
export const POOL_MAX_LAG_BLOCKS = 5;

export interface PoolPair {
  eth: Pool;
  ltc: Pool;
}

let made: Promise<PoolPair> | undefined;

async function makePools(ctx: Context): Promise<PoolPair> {
  const litecoind = findOnPath('litecoind');
  if (!litecoind) throw new Error('the pool experiments need litecoind on PATH (Debian package litecoind)');
  // ltc nodes on the real daemon (the suite's default is the dev chain); running nodes are adopted across the restart.
  const nodes = ctx.platform.services.nodes;
  await nodes.stop('SIGTERM');
  nodes.start({ LITECOIND_PATH: litecoind });
  await nodes.listening();
  await waitFor('the nodes service to be ready', () => nodes.ready(), 30_000);
  const [eth, ltc] = await Promise.all([createPool(ctx.platform, 'ethereum', POOL_MAX_LAG_BLOCKS), createPool(ctx.platform, 'bitcoin', POOL_MAX_LAG_BLOCKS)]);
  ctx.log(`  pools: eth ${eth.id} over ${eth.members.join(', ')}; ltc ${ltc.id} over ${ltc.members.join(', ')}`);
  return { eth, ltc };
}

/** The run's two pools, made by the first experiment that asks. */
export function poolsOf(ctx: Context): Promise<PoolPair> {
  made ??= makePools(ctx);
  return made;
}
