// Issue 29, item 8: PostgreSQL away 60 s, longer than a message's tries last (8 over ~30 s).
// Nothing may be dead-lettered, the usage the proxy reported meanwhile must all be counted once,
// and every hosted node must answer throughout.
import { compareUsage, quietUsage, usageCalls, type UsageAudit } from '../audit';
import { underLoad, type Context, type ExperimentResult } from '../experiments';
import type { RpcResult } from '../load';
import { rpcOk } from '../setup';
import { sleep, waitFor } from '../shell';

const OUTAGE_MS = 60_000;
// The proxy reports usage every 5 s (PROXY_USAGE_INTERVAL_MS): quiet for longer, all is in.
const USAGE_QUIET_MS = 7_000;
// A consumer held through the outage tries again at most a minute after it (DEFAULT_RETRY_POLICY's outage wait), plus margin.
const SETTLE_SECONDS = 90;

export async function postgresLong(ctx: Context): Promise<ExperimentResult> {
  const { db, platform, users } = ctx;
  const before = await quietUsage(db, USAGE_QUIET_MS, 60_000);
  // The load's proxied calls, kept by the check to be audited once the events have settled.
  const made: { calls: readonly RpcResult[] } = { calls: [] };
  const result = await underLoad({ ...ctx, settings: { ...ctx.settings, settleSeconds: SETTLE_SECONDS } }, 'postgres-long', 'PostgreSQL stopped (fast) 60 s under load (issue 29, item 8)', async () => {
    await db.stopFast();
    await sleep(OUTAGE_MS);
    await db.start();
    const endedAt = Date.now();
    return {
      endedAt,
      check(load) {
        const failures: string[] = [];
        const failed = load.rpc.filter((r) => !r.ok).length;
        if (failed > 0) failures.push(`${failed} proxied RPC calls failed`);
        made.calls = load.rpc;
        return { failures, notes: [] };
      },
    };
  });
  // Every call was answered, so every one is counted once: wait for the held consumer to catch up.
  let audit: UsageAudit = compareUsage(before, await usageCalls(db), made.calls);
  await waitFor('the usage to count every proxied call', async () => (audit = compareUsage(before, await usageCalls(db), made.calls)).differences.length === 0, SETTLE_SECONDS * 1000, 1000).catch(() => undefined);
  result.notes.unshift(`usage counted ${audit.counted} of the ${audit.made} proxied calls made`);
  result.failures.push(...audit.differences);
  for (const user of users) if (!(await rpcOk(platform, user))) result.failures.push(`node ${user.nodeId} does not answer through the proxy after the outage`);
  return result;
}
