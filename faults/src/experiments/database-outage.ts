// 2. PostgreSQL away 60 s under load (issue 21; issue 29, item 8: longer than a message's tries,
// 8 over ~30 s). The data plane keeps serving, the APIs say 503 + Retry-After, nothing is
// dead-lettered, and the usage the proxy reported meanwhile is all counted, once.
import { compareUsage, quietUsage, usageCalls, type UsageAudit } from '../audit';
import { seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import type { RpcResult } from '../load';
import { rpcOk } from '../setup';
import { sleep, waitFor } from '../shell';

/** The outage the platform promises to outlast without losing a record. */
const OUTAGE_MS = 60_000;
// The proxy reports usage every 5 s (PROXY_USAGE_INTERVAL_MS): quiet for longer, all is in.
const USAGE_QUIET_MS = 7_000;
// A consumer held through the outage tries again at most a minute after it (DEFAULT_RETRY_POLICY's outage wait), plus margin.
const SETTLE_SECONDS = 90;

export async function databaseOutage(ctx: Context): Promise<ExperimentResult> {
  const { db, platform, users } = ctx;
  const before = await quietUsage(db, USAGE_QUIET_MS, 60_000);
  // The load's proxied calls, kept by the check to be audited once the events have settled.
  const made: { calls: readonly RpcResult[] } = { calls: [] };
  const result = await underLoad(
    { ...ctx, settings: { ...ctx.settings, settleSeconds: SETTLE_SECONDS } },
    'postgres',
    `2. PostgreSQL stopped (fast) ${OUTAGE_MS / 1000} s under load`,
    async () => {
      const from = Date.now();
      await db.stopFast();
      await sleep(OUTAGE_MS);
      await db.start();
      const endedAt = Date.now();
      return {
        endedAt,
        check(load, watch) {
          const failures: string[] = [];
          const rpcFailed = load.rpc.filter((r) => !r.ok).length;
          if (rpcFailed > 0) failures.push(`${rpcFailed} proxied RPC calls failed`);
          const api500 = load.api.filter((r) => r.status === 500).length;
          if (api500 > 0) failures.push(`${api500} API answers were 500 (a database outage is a 503)`);
          const bare503 = load.api.filter((r) => r.status === 503 && !r.retryAfter).length;
          if (bare503 > 0) failures.push(`${bare503} API 503 answers had no Retry-After`);
          const unanswered = load.api.filter((r) => r.status === 0).length;
          if (unanswered > 0) failures.push(`${unanswered} API calls got no answer`);
          const during = load.api.filter((r) => r.at >= from && r.at <= endedAt);
          const unready = watch.unreadyDuring(from, endedAt);
          made.calls = load.rpc;
          return {
            failures,
            notes: [
              `outage ${seconds(endedAt - from)}; API answers during it: ${during.length} (${during.filter((r) => r.status === 503).length} were 503); /readyz not 200 during it: ${unready.join(', ') || 'none'}`,
            ],
          };
        },
      };
    },
  );
  // Every call was answered, so every one is counted once: wait for the held consumer to catch up.
  let audit: UsageAudit = compareUsage(before, await usageCalls(db), made.calls);
  await waitFor(
    'the usage to count every proxied call',
    async () => (audit = compareUsage(before, await usageCalls(db), made.calls)).differences.length === 0,
    SETTLE_SECONDS * 1000,
    1000,
  ).catch(() => undefined);
  result.notes.unshift(`usage counted ${audit.counted} of the ${audit.made} proxied calls made`);
  result.failures.push(...audit.differences);
  for (const user of users) if (!(await rpcOk(platform, user))) result.failures.push(`node ${user.nodeId} does not answer through the proxy after the outage`);
  return result;
}
