// Issue 31, "Done when" (a) and (b): under a steady load of reads through a pool of two anvil nodes
// and a pool of two litecoind regtest nodes, one member of each is SIGKILLed (its process, as a
// crash or an out-of-memory kill would), and once it runs again the nodes service itself is
// SIGKILLed and started again: not one read through either pool's endpoint may fail.
import { answeredJustBeforeKill, seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { call } from '../http';
import { headOf } from '../member-chain';
import { killNodeProcess, runningPid } from '../node-internal';
import { describeReads, PoolLoad } from '../pool-load';
import { nodeState, type Pool } from '../pools';
import { sleep, waitFor } from '../shell';
import { poolsOf } from './pool-fixture';

/** Reading loops per pool: with the suite's pause, ~20 reads/s on each pool. */
const LOOPS_PER_POOL = 2;
/** A killed member is restarted by its supervisor (500 ms, then its software's start): anvil in about a second, litecoind in a few. */
const MEMBER_BACK_BOUND_MS = 60_000;

/** Until the killed member's node runs again: a new process that answers its RPC, `running` in the API. */
async function memberBack(ctx: Context, pool: Pool, nodeId: string, killedPid: number): Promise<number> {
  await waitFor(
    `${nodeId} to run again after its SIGKILL`,
    async () => {
      const pid = runningPid(ctx.platform, nodeId);
      if (pid === undefined || pid === killedPid) return false;
      await headOf(ctx.platform, pool.family, nodeId);
      return (await nodeState(ctx.platform, pool.owner, nodeId)) === 'running';
    },
    MEMBER_BACK_BOUND_MS,
    100,
  );
  return Date.now();
}

/** The proxy's count of reads retried on another member (node_proxy_pool_failovers_total, summed over its lines). */
async function failoversCounted(ctx: Context): Promise<number | undefined> {
  const answer = await call('GET', `http://127.0.0.1:${ctx.platform.services['node-proxy'].port}/metrics`);
  const lines = answer.body.split('\n').filter((line) => line.startsWith('node_proxy_pool_failovers_total'));
  return answer.status === 200 && lines.length > 0 ? lines.reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0) : undefined;
}

export async function poolFailover(ctx: Context): Promise<ExperimentResult> {
  const { eth, ltc } = await poolsOf(ctx);
  const pools = [eth, ltc];
  const nodes = ctx.platform.services.nodes;
  return underLoad(
    ctx,
    'pool-failover',
    'pools: a member SIGKILLed, then the nodes service SIGKILLed and restarted, under reads through each pool',
    async () => {
      const failures: string[] = [];
      const notes: string[] = [];
      const failoversBefore = await failoversCounted(ctx);
      const load = new PoolLoad(pools, LOOPS_PER_POOL, ctx.settings.pauseMs);
      const loadFrom = Date.now();
      load.start();
      await sleep(ctx.settings.warmupSeconds * 1000);

      // (a) One member of each pool: the one that served the most reads so far, so its loss is felt.
      const victims = pools.map((pool) => {
        const served = load.summary(pool.id).byMember;
        return [...pool.members].sort((x, y) => (served[y] ?? 0) - (served[x] ?? 0))[0]!;
      });
      const memberKilledAt = Date.now();
      const killedPids = victims.map((nodeId) => killNodeProcess(ctx.platform, nodeId));
      const backAt = await Promise.all(pools.map((pool, i) => memberBack(ctx, pool, victims[i]!, killedPids[i]!)));
      pools.forEach((pool, i) => {
        const down = load.summary(pool.id, memberKilledAt, backAt[i]);
        notes.push(
          `${pool.family} pool: member ${victims[i]} (pid ${killedPids[i]}) SIGKILLed, running again after ${seconds(backAt[i]! - memberKilledAt)}; reads meanwhile: ${describeReads(down)}`,
        );
        if (down.sent === 0) failures.push(`${pool.family} pool: no read was made while its member was down: the experiment proved nothing`);
      });
      await sleep(ctx.settings.afterSeconds * 1000);

      // (b) The control plane: the nodes service SIGKILLed (its nodes run on, adopted at its start).
      const nodesKilledAt = Date.now();
      await nodes.stop('SIGKILL');
      nodes.start();
      const listenedAt = await nodes.listening();
      await waitFor('the nodes service to be ready', () => nodes.ready(), 30_000).catch(() =>
        failures.push('the nodes service was not ready within 30 s of its start'),
      );
      const endedAt = Date.now();
      notes.push(`nodes service SIGKILLed, listening again after ${seconds(listenedAt - nodesKilledAt)}, ready ${seconds(endedAt - listenedAt)} after`);
      await sleep(ctx.settings.afterSeconds * 1000);
      await load.stop();

      const failoversAfter = await failoversCounted(ctx);
      notes.push(
        `the proxy retried ${failoversBefore === undefined || failoversAfter === undefined ? 'an unknown number of' : failoversAfter - failoversBefore} reads on another member (node_proxy_pool_failovers_total)`,
      );
      for (const pool of pools) {
        const all = load.summary(pool.id);
        const restart = load.summary(pool.id, nodesKilledAt, endedAt);
        notes.push(`${pool.family} pool, while the nodes service was away: ${describeReads(restart)}`);
        notes.push(`${pool.family} pool, in all (${seconds(Date.now() - loadFrom)}): ${describeReads(all)}`);
        if (all.failed > 0) {
          const failed = load.reads.filter((r) => r.poolId === pool.id && !r.ok);
          failures.push(
            `${pool.family} pool: ${all.failed} of ${all.sent} reads failed, from ${seconds(failed[0]!.at - memberKilledAt)} to ${seconds(failed[failed.length - 1]!.at - memberKilledAt)} after the member's SIGKILL`,
          );
        }
      }
      return {
        endedAt,
        inLossWindow: (r) => answeredJustBeforeKill(r, 'nodes', nodesKilledAt),
        check(general) {
          // The load's own nodes (not pooled) are reported, not bounded here: experiment 3 bounds them.
          const rpcFailed = general.rpc.filter((r) => !r.ok).length;
          if (rpcFailed > 0) notes.push(`${rpcFailed} of the general load's ${general.rpc.length} proxied calls (single nodes) failed`);
          return { failures, notes };
        },
      };
    },
  );
}
