import {
  CREDENTIALS_COUNTED_PER_NODE,
  message,
  METHOD_USAGE_PER_NODE,
  POOL_MEMBERS_MAX,
  USAGE_OUTCOMES,
  type Bus,
  type BusMessage,
  type Payload,
  type UsageOutcome,
} from '@cloud/bus';
import type { Logger } from '@cloud/logging';
import { addCalls, addCounts, type CallTally, type OutcomeCounts } from './call-tally';

/** Method buckets that are not JSON-RPC names (`other`, for refused or unreadable calls, is in json-rpc). */
export const REST_BUCKET = 'rest';
export const MANAGEMENT_BUCKET = 'management';
/** Requests answered before their body was read (unauthorized, over the rate): their method is not known. */
export const UNREAD_BUCKET = 'unread';

/**
 * Whose usage a call is: the node, its owner, and the named Basic credential the caller presented
 * (none for a client access token, or a request refused before credentials were checked). A
 * route is one, without a credential.
 */
export interface UsageKey {
  nodeId: string;
  userId: string;
  credentialId?: string | undefined;
}

interface Counts {
  userId: string;
  requests: number;
  blocked: number;
  bytesIn: number;
  bytesOut: number;
  /** Calls per method bucket, by outcome (indexed as USAGE_OUTCOMES). */
  calls: Map<string, OutcomeCounts>;
  /** Calls per credential, by outcome (indexed as USAGE_OUTCOMES). */
  credentials: Map<string, OutcomeCounts>;
  /** Calls answered without the node (cache, tracked head). */
  cachedCalls: number;
  /** A pool's calls by the member that served them. */
  members: Map<string, number>;
}

type NodeUsage = Payload<'node.usage'>['nodes'][number];

/** Members of one pool counted in one interval: the schema's bound (members replaced within it included). */
const MEMBERS_COUNTED_PER_POOL = POOL_MEMBERS_MAX * 4;

/** Most nodes in one `node.usage` message (the schema's limit). */
const NODES_PER_MESSAGE = 1000;
/** Most method entries in one message, so a message stays well under the broker's frame size. */
const CALLS_PER_MESSAGE = METHOD_USAGE_PER_NODE;
/** Messages kept for the next interval while the bus does not take them; the oldest go first. */
const MAX_PENDING = 100;

/**
 * Counts calls and bytes per node, and calls per method and outcome, in memory and publishes them
 * as `node.usage` messages every interval: one message per interval for all nodes (or per 1000
 * nodes), never one per call. A call costs two Map lookups and an increment. If the bus does not
 * take the messages, they are kept as they are (same ids) and sent again with the next interval's,
 * so a consumer that got them after all counts them once.
 */
export class UsageMeter {
  private counts = new Map<string, Counts>();
  private pending: BusMessage<'node.usage'>[] = [];
  private from: Date;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(private readonly options: { bus: Bus; logger: Logger; proxyId: string; intervalMs: number; clock?: () => number }) {
    this.from = new Date(this.now());
  }

  record(key: UsageKey, usage: { requests?: number; blocked?: number; bytesIn?: number; bytesOut?: number }): void {
    const counts = this.countsOf(key);
    counts.requests += usage.requests ?? 0;
    counts.blocked += usage.blocked ?? 0;
    counts.bytesIn += usage.bytesIn ?? 0;
    counts.bytesOut += usage.bytesOut ?? 0;
  }

  /** Counts `calls` calls of a method bucket that ended as `outcome`, for the node and the credential used. */
  count(key: UsageKey, method: string, outcome: UsageOutcome, calls = 1): void {
    if (calls <= 0) return;
    const counts = this.countsOf(key);
    addCalls(counts.calls, method, outcome, calls);
    this.countCredential(counts, key, outcome, calls);
  }

  /**
   * Books one request at once: `served` when it was served (a request, with its bytes), and its
   * calls as `calls` tallied them. Nothing is booked for a request that was neither.
   */
  book(
    key: UsageKey,
    served: { blocked: number; bytesIn: number; bytesOut: number } | undefined,
    calls: CallTally,
    cachedCalls = 0,
    member?: { nodeId: string; calls: number },
  ): void {
    if (!served && calls.empty) return;
    const counts = this.countsOf(key);
    counts.cachedCalls += cachedCalls;
    // A pool has at most POOL_MEMBERS_MAX members; ones replaced within an interval are counted up to the schema's bound.
    if (member && member.calls > 0 && (counts.members.has(member.nodeId) || counts.members.size < MEMBERS_COUNTED_PER_POOL)) {
      counts.members.set(member.nodeId, (counts.members.get(member.nodeId) ?? 0) + member.calls);
    }
    if (served) {
      counts.requests += 1;
      counts.blocked += served.blocked;
      counts.bytesIn += served.bytesIn;
      counts.bytesOut += served.bytesOut;
    }
    const { credentialId } = key;
    const byCredential = credentialId !== undefined && !calls.empty && this.countsCredential(counts, credentialId);
    calls.forEach((method, outcomes) => {
      addCounts(counts.calls, method, outcomes);
      if (byCredential) addCounts(counts.credentials, credentialId, outcomes);
    });
  }

  private countCredential(counts: Counts, { credentialId }: UsageKey, outcome: UsageOutcome, calls: number): void {
    if (credentialId !== undefined && this.countsCredential(counts, credentialId)) addCalls(counts.credentials, credentialId, outcome, calls);
  }

  /**
   * A node has at most 100 credentials at a time; one replaced over and over within an interval
   * is not counted past the bound, so the message stays within its schema.
   */
  private countsCredential(counts: Counts, credentialId: string): boolean {
    return counts.credentials.size < CREDENTIALS_COUNTED_PER_NODE || counts.credentials.has(credentialId);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Publishes what was counted since the last flush; on failure the messages stay for the next one. */
  flush(): Promise<void> {
    this.flushing ??= this.publish().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and publishes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private countsOf({ nodeId, userId }: UsageKey): Counts {
    let counts = this.counts.get(nodeId);
    if (!counts) {
      counts = { userId, requests: 0, blocked: 0, bytesIn: 0, bytesOut: 0, calls: new Map(), credentials: new Map(), cachedCalls: 0, members: new Map() };
      this.counts.set(nodeId, counts);
    }
    return counts;
  }

  /** Turns the interval's counts into messages, each with an id of its own for the consumer to de-duplicate on. */
  private closeInterval(): void {
    const to = new Date(this.now());
    if (this.counts.size === 0) {
      // Nothing counted: the next interval starts now, so its counts are not dated back to an idle time.
      this.from = to;
      return;
    }
    const interval = { proxyId: this.options.proxyId, from: this.from.toISOString(), to: to.toISOString() };
    let nodes: NodeUsage[] = [];
    let calls = 0;
    for (const [nodeId, counts] of this.counts) {
      const entry = nodeUsageOf(nodeId, counts);
      if (nodes.length === NODES_PER_MESSAGE || (nodes.length > 0 && calls + entry.calls.length + entry.credentials.length > CALLS_PER_MESSAGE)) {
        this.pending.push(message('node.usage', { ...interval, nodes }, to));
        nodes = [];
        calls = 0;
      }
      nodes.push(entry);
      calls += entry.calls.length + entry.credentials.length;
    }
    this.pending.push(message('node.usage', { ...interval, nodes }, to));
    this.counts = new Map();
    this.from = to;
  }

  private async publish(): Promise<void> {
    this.closeInterval();
    if (this.pending.length === 0) return;
    const sending = this.pending;
    this.pending = [];
    try {
      await this.options.bus.publish(sending);
    } catch (error) {
      this.pending = [...sending, ...this.pending];
      const dropped = this.pending.splice(0, Math.max(0, this.pending.length - MAX_PENDING));
      this.options.logger.warn('could not publish node usage; keeping it for the next interval', {
        error,
        messages: this.pending.length,
        dropped: dropped.length,
      });
    }
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}

function nodeUsageOf(nodeId: string, { calls, credentials, members, ...counts }: Counts): NodeUsage {
  const entries: NodeUsage['calls'] = [];
  for (const [method, outcomes] of calls) {
    outcomes.forEach((count, index) => {
      if (count > 0) entries.push({ method, outcome: USAGE_OUTCOMES[index]!, calls: count });
    });
  }
  const byCredential: NodeUsage['credentials'] = [];
  for (const [credentialId, outcomes] of credentials) {
    outcomes.forEach((count, index) => {
      if (count > 0) byCredential.push({ credentialId, outcome: USAGE_OUTCOMES[index]!, calls: count });
    });
  }
  return {
    nodeId,
    ...counts,
    calls: entries,
    credentials: byCredential,
    members: [...members].map(([memberId, served]) => ({ nodeId: memberId, calls: served })),
  };
}
