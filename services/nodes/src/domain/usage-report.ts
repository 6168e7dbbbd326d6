import type { Clock } from '@cloud/auth';
import { USAGE_OUTCOMES, type UsageOutcome } from '@cloud/bus';
import { InvalidInputError } from '@cloud/http';
import type { Granularity, UsageRange, UsageRepository, UsageScope } from '../data-access/usage.repository';
import { bucketStart, bucketStep } from './usage-ingest';

/** Most points a series may have: a day of minutes, two months of hours. */
export const MAX_USAGE_POINTS = 1440;
const DEFAULT_SPAN_MS: Record<Granularity, number> = { minute: 3_600_000, hour: 86_400_000 };

export type CallsByOutcome = Record<UsageOutcome, number>;
export interface UsageTotals {
  calls: CallsByOutcome;
  total: number;
}
/** Bytes, and the calls the proxy answered from its cache or tracked head (counted in `calls.ok` too). */
export interface TrafficTotals {
  bytesIn: number;
  bytesOut: number;
  cachedCalls: number;
}
export interface UsagePoint extends UsageTotals, TrafficTotals {
  time: string;
}
export interface UsageReport {
  granularity: Granularity;
  from: string;
  to: string;
  series: UsagePoint[];
  methods: (UsageTotals & { method: string })[];
  totals: UsageTotals & TrafficTotals;
}
/** One endpoint's report: a node's, or a pool's. */
export interface EndpointUsageReport extends UsageReport {
  /** Calls per named credential (Basic or URL token); `name` and `kind` are null for a credential removed since. */
  credentials: (UsageTotals & { credentialId: string; name: string | null; kind: 'basic' | 'token' | null })[];
  /** A pool's calls by the member node that served them, most first (a member removed since included); empty for a node. */
  members: { nodeId: string; calls: number }[];
}
export interface UserUsageReport extends UsageReport {
  /** Totals per endpoint, a node's or a pool's (`pool-…`). */
  nodes: (UsageTotals & TrafficTotals & { nodeId: string })[];
}

export interface UsageQuery {
  from?: string;
  to?: string;
  granularity?: Granularity;
}

const noCalls = (): CallsByOutcome => Object.fromEntries(USAGE_OUTCOMES.map((outcome) => [outcome, 0])) as CallsByOutcome;

/** Adds a row's calls to the totals kept under its key. */
function addTo<K>(totals: Map<K, UsageTotals>, key: K, outcome: UsageOutcome, calls: number): void {
  let entry = totals.get(key);
  if (!entry) {
    entry = { calls: noCalls(), total: 0 };
    totals.set(key, entry);
  }
  entry.calls[outcome] += calls;
  entry.total += calls;
}

/**
 * The buckets a query covers: by default the last hour by minute, or the last day by hour (the
 * bucket in progress included). `from` is taken back to its bucket's start and `to` on to the
 * next bucket's, and the series may hold at most MAX_USAGE_POINTS buckets.
 */
export function usageRange(query: UsageQuery, now: number): UsageRange {
  const granularity = query.granularity ?? 'minute';
  const step = bucketStep(granularity);
  const to = query.to === undefined ? now : Date.parse(query.to);
  const from = query.from === undefined ? to - DEFAULT_SPAN_MS[granularity] : Date.parse(query.from);
  if (from >= to) throw new InvalidInputError('query.from: must be before query.to (or now, when to is not given)');
  const start = bucketStart(from, granularity);
  const end = bucketStart(to - 1, granularity) + step;
  const points = (end - start) / step;
  if (points > MAX_USAGE_POINTS) {
    throw new InvalidInputError(
      `query.from: the range holds ${points} ${granularity} buckets, over the limit of ${MAX_USAGE_POINTS}; shorten it or use a coarser granularity`,
    );
  }
  return { granularity, from: new Date(start), to: new Date(end) };
}

/** Reads usage: a series of calls by outcome and bytes per bucket (every bucket of the range, zeros included), and totals per method. */
export class UsageReports {
  constructor(private readonly deps: { usage: UsageRepository; clock: Clock }) {}

  async report(scope: UsageScope, query: UsageQuery): Promise<UsageReport> {
    const range = usageRange(query, this.deps.clock());
    const { usage } = this.deps;
    const [byBucket, byMethod, traffic] = [
      await usage.callsByBucket(scope, range),
      await usage.callsByMethod(scope, range),
      await usage.trafficByBucket(scope, range),
    ];
    const calls = new Map<number, UsageTotals>();
    for (const row of byBucket) addTo(calls, row.bucketStart.getTime(), row.outcome, row.calls);
    const trafficAt = new Map(traffic.map((row) => [row.bucketStart.getTime(), row]));
    const series: UsagePoint[] = [];
    const step = bucketStep(range.granularity);
    for (let time = range.from.getTime(); time < range.to.getTime(); time += step) {
      const counted = calls.get(time) ?? { calls: noCalls(), total: 0 };
      series.push({ time: new Date(time).toISOString(), ...counted, ...trafficOf(trafficAt.get(time)) });
    }
    const methods = new Map<string, UsageTotals>();
    const totals = new Map<'all', UsageTotals>([['all', { calls: noCalls(), total: 0 }]]);
    for (const row of byMethod) {
      addTo(methods, row.method, row.outcome, row.calls);
      addTo(totals, 'all', row.outcome, row.calls);
    }
    return {
      granularity: range.granularity,
      from: range.from.toISOString(),
      to: range.to.toISOString(),
      series,
      methods: [...methods].map(([method, counted]) => ({ method, ...counted })).sort((a, b) => b.total - a.total || a.method.localeCompare(b.method)),
      totals: { ...totals.get('all')!, bytesIn: sum(traffic, 'bytesIn'), bytesOut: sum(traffic, 'bytesOut'), cachedCalls: sum(traffic, 'cachedCalls') },
    };
  }

  /**
   * One endpoint's report by its id, a node's (`node-…`) or a pool's (`pool-…`; its usage is booked
   * under the pool's id), with totals per credential and, for a pool, per member. `names`: the
   * endpoint's credentials now, by id, with their kind. The caller checks the endpoint is the
   * user's: this reads whatever is stored under the id.
   */
  async endpointReport(
    endpointId: string,
    names: ReadonlyMap<string, { name: string; kind: 'basic' | 'token' }>,
    query: UsageQuery,
  ): Promise<EndpointUsageReport> {
    const scope = { nodeId: endpointId };
    const report = await this.report(scope, query);
    const range = { granularity: report.granularity, from: new Date(report.from), to: new Date(report.to) };
    const calls = new Map<string, UsageTotals>();
    for (const row of await this.deps.usage.callsByCredential(scope, range)) addTo(calls, row.credentialId, row.outcome, row.calls);
    const credentials = [...calls]
      .map(([credentialId, counted]) => ({
        credentialId,
        name: names.get(credentialId)?.name ?? null,
        kind: names.get(credentialId)?.kind ?? null,
        ...counted,
      }))
      .sort((a, b) => b.total - a.total || a.credentialId.localeCompare(b.credentialId));
    const members = (await this.deps.usage.callsByMember(scope, range))
      .map((row) => ({ nodeId: row.memberId, calls: row.calls }))
      .sort((a, b) => b.calls - a.calls || a.nodeId.localeCompare(b.nodeId));
    return { ...report, credentials, members };
  }

  /** The report across every node and pool of a user, with totals per node or pool. */
  async userReport(userId: string, query: UsageQuery): Promise<UserUsageReport> {
    const scope = { userId };
    const report = await this.report(scope, query);
    const range = { granularity: report.granularity, from: new Date(report.from), to: new Date(report.to) };
    const calls = new Map<string, UsageTotals>();
    for (const row of await this.deps.usage.callsByNode(scope, range)) addTo(calls, row.nodeId, row.outcome, row.calls);
    const traffic = new Map((await this.deps.usage.trafficByNode(scope, range)).map((row) => [row.nodeId, row]));
    const nodeIds = [...new Set([...calls.keys(), ...traffic.keys()])].sort();
    const nodes = nodeIds.map((nodeId) => ({ nodeId, ...(calls.get(nodeId) ?? { calls: noCalls(), total: 0 }), ...trafficOf(traffic.get(nodeId)) }));
    return { ...report, nodes };
  }
}

const trafficOf = (row: TrafficTotals | undefined): TrafficTotals => ({
  bytesIn: row?.bytesIn ?? 0,
  bytesOut: row?.bytesOut ?? 0,
  cachedCalls: row?.cachedCalls ?? 0,
});

function sum<K extends string>(rows: readonly Record<K, number>[], key: K): number {
  return rows.reduce((total, row) => total + row[key], 0);
}
