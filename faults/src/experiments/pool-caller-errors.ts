// Issue 31: a member is benched (circuit breaker) when it keeps failing, not when a caller keeps
// asking for what does not exist. Bitcoin-family nodes answer every JSON-RPC error with HTTP 500
// (JSON-RPC 1.0), so a caller's bad calls look like 5xx: they must still reach the caller as the
// node's own error, and leave every member serving the pool's other callers.
import { call } from '../http';
import { underLoad, type Context, type ExperimentResult } from '../experiments';
import { callPool, type Pool } from '../pools';
import { poolsOf } from './pool-fixture';

/** More than PROXY_POOL_FAILURES_TO_BENCH (3) per member. */
const BAD_CALLS = 10;
const GOOD_READS = 20;

/** A call the node refuses for its parameters: a height far above any head. */
const BAD_CALL: Record<Pool['family'], [string, unknown[]]> = {
  ethereum: ['eth_getBlockByNumber', ['0xzz', false]],
  bitcoin: ['getblockhash', [99_999_999]],
};
const GOOD_READ: Record<Pool['family'], [string, unknown[]]> = {
  ethereum: ['eth_getBalance', ['0x0000000000000000000000000000000000000000', 'latest']],
  bitcoin: ['getblockchaininfo', []],
};

async function benchedMembers(ctx: Context): Promise<number | undefined> {
  const answer = await call('GET', `http://127.0.0.1:${ctx.platform.services['node-proxy'].port}/metrics`);
  const lines = answer.body.split('\n').filter((line) => line.startsWith('node_proxy_pool_benched_members'));
  return answer.status === 200 && lines.length > 0 ? lines.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0) : undefined;
}

export async function poolCallerErrors(ctx: Context): Promise<ExperimentResult> {
  const { eth, ltc } = await poolsOf(ctx);
  return underLoad(ctx, 'pool-caller-errors', "pools: a caller's bad calls bench no member", async () => {
    const failures: string[] = [];
    const notes: string[] = [];
    for (const pool of [eth, ltc]) {
      const bad: Record<string, number> = {};
      for (let i = 0; i < BAD_CALLS; i += 1) {
        const { failure, answer } = await callPool(pool, ...BAD_CALL[pool.family]);
        const kind = failure ?? `a result ${answer.body.slice(0, 40)}`;
        bad[kind] = (bad[kind] ?? 0) + 1;
      }
      const benched = await benchedMembers(ctx);
      let failed = 0;
      const failedKinds = new Set<string>();
      for (let i = 0; i < GOOD_READS; i += 1) {
        const { result, failure } = await callPool(pool, ...GOOD_READ[pool.family]);
        if (result === undefined) {
          failed += 1;
          failedKinds.add(failure ?? 'no result');
        }
      }
      notes.push(
        `${pool.family} pool: ${BAD_CALLS} bad calls answered ${JSON.stringify(bad)}; members benched after: ${benched ?? 'unknown'}; then ${GOOD_READS} reads, ${failed} failed`,
      );
      const refusedByProxy = Object.entries(bad).filter(([kind]) => kind.includes('503'));
      if (refusedByProxy.length > 0)
        failures.push(`${pool.family} pool: bad calls answered 503 instead of the node's error (${refusedByProxy.map(([k, n]) => `${k} × ${n}`).join('; ')})`);
      if (benched !== undefined && benched > 0) failures.push(`${pool.family} pool: a caller's ${BAD_CALLS} bad calls benched ${benched} members`);
      if (failed > 0)
        failures.push(
          `${pool.family} pool: ${failed} of ${GOOD_READS} good reads failed after another call's errors (${[...failedKinds].join('; ').slice(0, 200)})`,
        );
    }
    return { endedAt: Date.now(), check: () => ({ failures, notes }) };
  });
}
