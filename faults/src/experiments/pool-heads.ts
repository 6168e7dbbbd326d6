// Issue 31, "Done when" (c) and (d), on the pools of pool-failover (anvil and litecoind regtest):
// (c) a reorg made on one member through its own login leaves no stale answer through the pool once
// the proxy's head tracker has seen it: every block hash the pool answers at a height is one a
// member holds there now, never one the reorg replaced; (d) a member 10 blocks behind the other
// (blocks mined on one member only) gets no calls: every answer names the other in x-pool-member,
// and the pool's usage per member counts none for it.
import { seconds, underLoad, type Context, type ExperimentResult } from '../experiments';
import { hashAt, hashCall, hashIn, headOf, mine, reorg } from '../member-chain';
import { callPool, memberUsage, type Pool } from '../pools';
import { sleep, waitFor } from '../shell';
import { POOL_MAX_LAG_BLOCKS, poolsOf } from './pool-fixture';

/** Blocks the reorg replaces: deeper than the dev chains' finality depth (PROXY_FINALITY_BLOCKS_DEV, 2), so the cache may hold them as final. */
const REORG_DEPTH = 5;
/** Heights read below the fork too: answers that must not change. */
const BELOW_FORK = 3;
/** How long the proxy may answer what the reorg replaced: its head tracker reads every member each PROXY_HEAD_INTERVAL_MS (1 s). */
const CATCH_UP_BOUND_MS = 15_000;
/** Sweeps over the heights once caught up, each answer checked. */
const SWEEPS = 10;
const LAG_BLOCKS = 10;
/** Reads through the pool while a member lags. */
const LAGGING_READS = 100;
/** The proxy publishes its usage every PROXY_USAGE_INTERVAL_MS (5 s): counts unchanged this long are complete. */
const USAGE_QUIET_MS = 7_000;

interface Outcome {
  failures: string[];
  notes: string[];
}

/** Every member's hash at each height (undefined where it has no block). */
async function memberHashes(ctx: Context, pool: Pool, heights: number[]): Promise<Map<string, (string | undefined)[]>> {
  const entries = await Promise.all(
    pool.members.map(async (m) => [m, await Promise.all(heights.map((h) => hashAt(ctx.platform, pool.family, m, h).catch(() => undefined)))] as const),
  );
  return new Map(entries);
}

interface Sweep {
  answers: number;
  /** Hashes the reorg replaced. */
  stale: string[];
  /** A hash no member holds at that height (neither current nor replaced). */
  unknown: string[];
  /** Answers whose hash differs from the one the member they name holds there. */
  notTheNamedMembers: number;
  byMember: Record<string, number>;
}

/**
 * Reads every height once through the pool and classifies each hash against the members' own
 * (`current`, read again at a height where no member held the answer: a member may have mined there since).
 */
async function sweep(ctx: Context, pool: Pool, heights: number[], current: Map<string, (string | undefined)[]>, replaced: Set<string>): Promise<Sweep> {
  const result: Sweep = { answers: 0, stale: [], unknown: [], notTheNamedMembers: 0, byMember: {} };
  for (const [i, height] of heights.entries()) {
    const [method, params] = hashCall(pool.family, height);
    const answer = await callPool(pool, method, params);
    const hash = hashIn(pool.family, answer.result);
    if (hash === undefined) continue; // no block there on the member asked (or a failure): nothing to compare
    result.answers += 1;
    result.byMember[answer.member ?? 'none'] = (result.byMember[answer.member ?? 'none'] ?? 0) + 1;
    const holdersOf = () => [...current].filter(([, hashes]) => hashes[i] === hash).map(([m]) => m);
    let holders = holdersOf();
    if (holders.length === 0 && !replaced.has(hash)) {
      for (const m of pool.members) current.get(m)![i] = await hashAt(ctx.platform, pool.family, m, height).catch(() => undefined);
      holders = holdersOf();
    }
    if (replaced.has(hash)) result.stale.push(`${height}: ${hash}`);
    else if (holders.length === 0) result.unknown.push(`${height}: ${hash}`);
    if (answer.member !== undefined && holders.length > 0 && !holders.includes(answer.member)) result.notTheNamedMembers += 1;
  }
  return result;
}

/** Blocks mined on the members behind until they are level with the highest, so the next step (or experiment) finds every member serving. */
async function evenUp(ctx: Context, pool: Pool): Promise<void> {
  const heads = await Promise.all(pool.members.map((m) => headOf(ctx.platform, pool.family, m)));
  await Promise.all(pool.members.map((m, i) => mine(ctx.platform, pool.family, m, Math.max(...heads) - heads[i]!)));
}

/** (c) */
async function reorgLeavesNoStaleAnswer(ctx: Context, pool: Pool): Promise<Outcome> {
  const failures: string[] = [];
  const notes: string[] = [];
  const { platform } = ctx;
  const [reorged, other] = pool.members as [string, string];
  // Blocks of its own on top, freshly made (anvil reorganises only blocks whose state it holds, not
  // those from before a restart loaded its state file), and a lead over the other member beyond the
  // lag bound: reads go to it alone, so what the pool keeps of these heights is the blocks the reorg replaces.
  const behind = (await headOf(platform, pool.family, other)) - (await headOf(platform, pool.family, reorged));
  await mine(platform, pool.family, reorged, Math.max(0, behind) + POOL_MAX_LAG_BLOCKS + REORG_DEPTH + 1);
  if (!(await routedAlone(pool, reorged)))
    failures.push(`${pool.family} pool: reads still went to ${other} ${CATCH_UP_BOUND_MS / 1000} s after it fell behind`);
  const top = await headOf(platform, pool.family, reorged);
  const heights = Array.from({ length: REORG_DEPTH + BELOW_FORK + 1 }, (_, i) => top + 1 - i).filter((h) => h > 0);
  // Read through the pool before the reorg, so whatever it keeps of these heights is kept.
  for (let i = 0; i < 3; i += 1) await sweep(ctx, pool, heights, await memberHashes(ctx, pool, heights), new Set());
  const before = await Promise.all(heights.map((h) => hashAt(platform, pool.family, reorged, h).catch(() => undefined)));
  const forkHeight = await reorg(platform, pool.family, reorged, REORG_DEPTH);
  const reorgedAt = Date.now();
  const current = await memberHashes(ctx, pool, heights);
  const replaced = new Set(before.filter((hash, i): hash is string => hash !== undefined && current.get(reorged)![i] !== hash));
  notes.push(
    `${pool.family} pool: ${reorged} reorganised from height ${forkHeight} (${replaced.size} of heights ${heights.at(-1)}–${heights[0]} got new blocks)`,
  );
  if (replaced.size < REORG_DEPTH - 1) failures.push(`${pool.family} pool: the reorg replaced only ${replaced.size} blocks: the experiment proved little`);

  let caughtUpMs: number | undefined;
  // Until the tracker has read the new head (every PROXY_HEAD_INTERVAL_MS), replaced blocks may be answered: counted, not bounded.
  let staleMeanwhile = 0;
  await waitFor(
    `${pool.family} pool to answer no block the reorg replaced`,
    async () => {
      const s = await sweep(ctx, pool, heights, current, replaced);
      staleMeanwhile += s.stale.length;
      return s.stale.length === 0 && s.unknown.length === 0;
    },
    CATCH_UP_BOUND_MS,
    200,
  )
    .then(() => (caughtUpMs = Date.now() - reorgedAt))
    .catch(() => failures.push(`${pool.family} pool: still answering replaced blocks ${CATCH_UP_BOUND_MS / 1000} s after the reorg`));
  if (caughtUpMs === undefined) return { failures, notes };

  const total: Sweep = { answers: 0, stale: [], unknown: [], notTheNamedMembers: 0, byMember: {} };
  for (let i = 0; i < SWEEPS; i += 1) {
    const s = await sweep(ctx, pool, heights, current, replaced);
    total.answers += s.answers;
    total.stale.push(...s.stale);
    total.unknown.push(...s.unknown);
    total.notTheNamedMembers += s.notTheNamedMembers;
    for (const [m, n] of Object.entries(s.byMember)) total.byMember[m] = (total.byMember[m] ?? 0) + n;
  }
  notes.push(
    `${pool.family} pool: no replaced block answered ${seconds(caughtUpMs)} after the reorg (${staleMeanwhile} answered before); then ${total.answers} block reads: ${total.stale.length} stale, ${total.unknown.length} held by no member, ${total.notTheNamedMembers} not the named member's; by member ${JSON.stringify(total.byMember)}`,
  );
  if (total.answers === 0) failures.push(`${pool.family} pool: no block answered after the reorg`);
  if (total.stale.length > 0)
    failures.push(`${pool.family} pool: ${total.stale.length} stale answers after it had caught up (first: height ${total.stale[0]})`);
  if (total.unknown.length > 0) failures.push(`${pool.family} pool: ${total.unknown.length} answers no member holds (first: height ${total.unknown[0]})`);
  if (total.notTheNamedMembers > 0)
    failures.push(`${pool.family} pool: ${total.notTheNamedMembers} answers differ from the block of the member x-pool-member names`);
  await evenUp(ctx, pool);
  return { failures, notes };
}

/** The pool's usage per member once the proxy has published all it counted (unchanged for USAGE_QUIET_MS). */
async function quietMemberUsage(ctx: Context, pool: Pool): Promise<Map<string, number>> {
  let last = await memberUsage(ctx.platform, pool);
  let since = Date.now();
  const deadline = Date.now() + 60_000;
  while (Date.now() - since < USAGE_QUIET_MS && Date.now() < deadline) {
    await sleep(1000);
    const now = await memberUsage(ctx.platform, pool);
    if (pool.members.some((m) => now.get(m) !== last.get(m))) [last, since] = [now, Date.now()];
  }
  return last;
}

/** Reads that a head cache would not answer: each must reach a member. */
const MEMBER_READS: Record<Pool['family'], [string, unknown[]][]> = {
  ethereum: [
    ['eth_getBlockByNumber', ['latest', false]],
    ['eth_getBalance', ['0x0000000000000000000000000000000000000000', 'latest']],
  ],
  bitcoin: [
    ['getblockchaininfo', []],
    ['getmempoolinfo', []],
  ],
};

const memberRead = (pool: Pool, i: number) => callPool(pool, ...MEMBER_READS[pool.family][i % MEMBER_READS[pool.family].length]!);

/**
 * Whether the pool sends reads to `member` alone within CATCH_UP_BOUND_MS: 10 in a row named it
 * (the proxy takes turns among the members that may serve, so with two that never happens by chance).
 */
async function routedAlone(pool: Pool, member: string): Promise<boolean> {
  let streak = 0;
  return waitFor(
    `${pool.family} pool to route to ${member} alone`,
    async () => {
      streak = (await memberRead(pool, streak)).member === member ? streak + 1 : 0;
      return streak >= 10;
    },
    CATCH_UP_BOUND_MS,
    0,
  ).then(
    () => true,
    () => false,
  );
}

/** (d) */
async function laggingMemberGetsNoCalls(ctx: Context, pool: Pool): Promise<Outcome> {
  const failures: string[] = [];
  const notes: string[] = [];
  const { platform } = ctx;
  const [leader, lagging] = pool.members as [string, string];
  const gap = async () => (await headOf(platform, pool.family, leader)) - (await headOf(platform, pool.family, lagging));
  // Both keep mining a block per interval: a block made on the other between two reads is made up for.
  for (let i = 0; i < 3 && (await gap()) < LAG_BLOCKS; i += 1) await mine(platform, pool.family, leader, LAG_BLOCKS - (await gap()));
  const lagAtStart = await gap();
  if (lagAtStart < LAG_BLOCKS) failures.push(`${pool.family} pool: ${lagging} only ${lagAtStart} blocks behind after mining on ${leader}`);
  if (!(await routedAlone(pool, leader)))
    failures.push(`${pool.family} pool: reads still went to ${lagging} ${CATCH_UP_BOUND_MS / 1000} s after it fell behind`);

  const usageBefore = await quietMemberUsage(ctx, pool).catch((error: Error) => {
    notes.push(`${pool.family} pool: no usage per member (${error.message.slice(0, 120)})`);
    return undefined;
  });
  const byMember: Record<string, number> = {};
  let failed = 0;
  for (let i = 0; i < LAGGING_READS; i += 1) {
    const answer = await memberRead(pool, i);
    if (answer.result === undefined) failed += 1;
    byMember[answer.member ?? 'none'] = (byMember[answer.member ?? 'none'] ?? 0) + 1;
    await sleep(ctx.settings.pauseMs);
  }
  const lagAtEnd = await gap();
  notes.push(
    `${pool.family} pool: ${lagging} ${lagAtStart} blocks behind (${lagAtEnd} at the end; lag bound ${POOL_MAX_LAG_BLOCKS}); ${LAGGING_READS} reads, ${failed} failed, by member ${JSON.stringify(byMember)}`,
  );
  if (lagAtEnd <= POOL_MAX_LAG_BLOCKS) failures.push(`${pool.family} pool: the lag closed during the reads (${lagAtEnd} blocks)`);
  if (failed > 0) failures.push(`${pool.family} pool: ${failed} of ${LAGGING_READS} reads failed while a member lagged`);
  if ((byMember[lagging] ?? 0) > 0) failures.push(`${pool.family} pool: the lagging member served ${byMember[lagging]} of ${LAGGING_READS} reads`);
  if ((byMember[leader] ?? 0) === 0) failures.push(`${pool.family} pool: no answer named the member that served it (x-pool-member)`);
  if (usageBefore) {
    const usageAfter = await quietMemberUsage(ctx, pool);
    const delta = (m: string) => (usageAfter.get(m) ?? 0) - (usageBefore.get(m) ?? 0);
    notes.push(`${pool.family} pool usage over the reads: ${leader} +${delta(leader)}, ${lagging} +${delta(lagging)}`);
    if (delta(lagging) !== 0) failures.push(`${pool.family} pool: usage counts ${delta(lagging)} calls for the lagging member`);
    if (delta(leader) !== byMember[leader])
      failures.push(`${pool.family} pool: usage counts ${delta(leader)} calls for ${leader}, the answers named it ${byMember[leader] ?? 0} times`);
  }
  await evenUp(ctx, pool);
  return { failures, notes };
}

export async function poolHeads(ctx: Context): Promise<ExperimentResult> {
  const { eth, ltc } = await poolsOf(ctx);
  return underLoad(ctx, 'pool-heads', 'pools: a reorg on one member, then a member 10 blocks behind', async () => {
    const outcomes: Outcome[] = [];
    // A step that could not be taken (a node refusing the reorg) fails the experiment, not the suite.
    const step = (name: string, pool: Pool, run: (ctx: Context, pool: Pool) => Promise<Outcome>) =>
      run(ctx, pool).catch((error: Error) => ({ failures: [`${pool.family} pool, ${name}: ${error.message}`], notes: [] }));
    for (const pool of [eth, ltc]) outcomes.push(await step('reorg', pool, reorgLeavesNoStaleAnswer));
    for (const pool of [eth, ltc]) outcomes.push(await step('lag', pool, laggingMemberGetsNoCalls));
    const endedAt = Date.now();
    return {
      endedAt,
      check: () => ({ failures: outcomes.flatMap((o) => o.failures), notes: outcomes.flatMap((o) => o.notes) }),
    };
  });
}
