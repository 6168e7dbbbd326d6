import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DependencyReport } from '@cloud/http';
import { busMetrics } from '@cloud/bus';
import type { CacheCounters } from './cache/call-cache';
import type { Family, ListenerName } from './routing/interfaces';

/**
 * What a proxy call ended as. Labels are only ever these values and the listener names, never a
 * node id, a method or a host, so no caller can grow the label sets.
 */
export type Outcome =
  | 'forwarded'
  | 'cached'
  | 'refused_method'
  | 'unknown_method'
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'preflight'
  | 'not_found'
  | 'not_ready'
  | 'rate_limited'
  | 'login_throttled'
  | 'too_many_websockets'
  | 'too_large'
  | 'upstream_unreachable'
  | 'upstream_timeout'
  | 'management';

export class ProxyMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'node_proxy_requests_total',
    help: 'Requests to hosted nodes, by listener and outcome',
    labelNames: ['listener', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly refusedCalls = new Counter({
    name: 'node_proxy_refused_calls_total',
    help: 'JSON-RPC calls refused by the method filter (each batch element counts)',
    labelNames: ['listener'] as const,
    registers: [this.registry],
  });
  readonly unknownMethodCalls = new Counter({
    name: 'node_proxy_unknown_method_calls_total',
    help: 'JSON-RPC calls refused because their method is in neither the allowed nor the refused list (each batch element counts; also in node_proxy_refused_calls_total)',
    labelNames: ['listener'] as const,
    registers: [this.registry],
  });
  readonly upstreamSeconds = new Histogram({
    name: 'node_proxy_upstream_duration_seconds',
    help: 'Time from forwarding a request to the node until its answer is passed on',
    labelNames: ['listener'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  // Every worker holds the whole table: summing their gauges would count each node once per worker.
  readonly routes = new Gauge({ name: 'node_proxy_routes', help: 'Nodes in the routing table', aggregator: 'max', registers: [this.registry] });
  readonly webSockets = new Gauge({ name: 'node_proxy_websockets', help: 'Open WebSocket connections to nodes', registers: [this.registry] });
  private heldBytesOf: () => number = () => 0;
  readonly webSocketHeldBytes: Gauge = new Gauge({
    name: 'node_proxy_websocket_held_bytes',
    help: 'Bytes the WebSocket bridge holds for its connections (unread answers, calls not yet taken by the node)',
    registers: [this.registry],
    // Summed when scraped, so the bridge's hot path updates nothing.
    collect: () => this.webSocketHeldBytes.set(this.heldBytesOf()),
  });
  readonly webSocketOverflows = new Counter({
    name: 'node_proxy_websocket_overflows_total',
    help: 'WebSockets closed (1008) for holding more than PROXY_WS_MAX_BUFFERED_BYTES: a client that does not read its answers',
    registers: [this.registry],
  });

  // The answer cache (src/cache/): labelled by family at most.
  readonly cacheHits = new Counter({
    name: 'node_proxy_cache_hits_total',
    help: 'JSON-RPC calls answered from the answer cache or the tracked head, without the node',
    labelNames: ['family'] as const,
    registers: [this.registry],
  });
  readonly cacheMisses = new Counter({
    name: 'node_proxy_cache_misses_total',
    help: 'Cacheable JSON-RPC calls that went to the node (their answer kept when final)',
    labelNames: ['family'] as const,
    registers: [this.registry],
  });
  readonly cacheInflightMerged = new Counter({
    name: 'node_proxy_cache_inflight_merged_total',
    help: 'Cacheable JSON-RPC calls answered with the result of an identical call at the node at the same time',
    labelNames: ['family'] as const,
    registers: [this.registry],
  });
  readonly cacheEvictions = new Counter({
    name: 'node_proxy_cache_evictions_total',
    help: 'Answers the cache let go to stay within PROXY_CACHE_BYTES (least recently used first)',
    registers: [this.registry],
  });
  readonly cacheReorgDrops = new Counter({
    name: 'node_proxy_cache_reorg_drops_total',
    help: 'Answers the cache dropped because a reorg (or a dev node owner mining or reverting by hand) changed their block or one below it',
    registers: [this.registry],
  });
  private cacheSizeOf: () => { bytes: number; entries: number } = () => ({ bytes: 0, entries: 0 });
  readonly cacheBytes: Gauge = new Gauge({
    name: 'node_proxy_cache_bytes',
    help: 'Bytes the answer cache holds (keys and answers, as charged against PROXY_CACHE_BYTES)',
    registers: [this.registry],
    collect: () => this.cacheBytes.set(this.cacheSizeOf().bytes),
  });
  readonly cacheEntries: Gauge = new Gauge({
    name: 'node_proxy_cache_entries',
    help: 'Answers the answer cache holds',
    registers: [this.registry],
    collect: () => this.cacheEntries.set(this.cacheSizeOf().entries),
  });

  /** Where the cache gauges read from (read when scraped). */
  measureCache(read: () => { bytes: number; entries: number }): void {
    this.cacheSizeOf = read;
  }

  /** The cache's counters, each family's child looked up once. */
  cacheCounters(): CacheCounters {
    const byFamily = (counter: Counter<'family'>) => {
      const children = new Map<Family, Counter.Internal>();
      return (family: Family) => {
        let child = children.get(family);
        if (!child) children.set(family, (child = counter.labels({ family })));
        child.inc();
      };
    };
    return {
      hit: byFamily(this.cacheHits),
      miss: byFamily(this.cacheMisses),
      merged: byFamily(this.cacheInflightMerged),
      evicted: (count) => this.cacheEvictions.inc(count),
      reorgDropped: (count) => this.cacheReorgDrops.inc(count),
    };
  }

  readonly poolFailovers = new Counter({
    name: 'node_proxy_pool_failovers_total',
    help: 'Pool calls retried on another member after the first one failed (connection, timeout, 5xx) before anything reached the caller',
    registers: [this.registry],
  });
  private benchedOf: () => number = () => 0;
  // Each worker benches on what it saw: the most any worker benches, not a sum counting a member once per worker.
  readonly poolBenchedMembers: Gauge = new Gauge({
    name: 'node_proxy_pool_benched_members',
    help: 'Pool members taken out of their pools by the circuit breaker (PROXY_POOL_FAILURES_TO_BENCH failures in a row) until a head read succeeds',
    aggregator: 'max',
    registers: [this.registry],
    collect: () => this.poolBenchedMembers.set(this.benchedOf()),
  });

  /** 1 while a dependency answers its check, 0 while it is down: the broker may be down with the proxy still ready (decision 020). */
  readonly dependencyUp: Gauge<'dependency'> = new Gauge({
    name: 'node_proxy_dependency_up',
    help: 'Whether a dependency of the proxy answers (1) or not (0): the routing table, the token revocations, the message bus',
    labelNames: ['dependency'],
    // With several workers the primary reports the worst: down if any worker has lost it.
    aggregator: 'min',
    registers: [this.registry],
    collect: async () => {
      for (const [dependency, report] of Object.entries(await this.probeDependencies())) this.dependencyUp.set({ dependency }, report.up ? 1 : 0);
    },
  });
  private probeDependencies: () => Promise<DependencyReport> = () => Promise.resolve({});

  /** Where the dependency gauge reads from (the readiness checks). */
  measureDependencies(probe: () => Promise<DependencyReport>): void {
    this.probeDependencies = probe;
  }

  /** What one proxy process reports: its own metrics and its bus's (dead letters). */
  get registries(): Registry[] {
    return [this.registry, busMetrics];
  }

  /** Where the benched-members gauge reads from (the pools' circuit breaker). */
  measurePools(benched: () => number): void {
    this.benchedOf = benched;
  }

  /** Where the held-bytes gauge reads from (the WebSocket bridge). */
  measureWebSocketHeld(read: () => number): void {
    this.heldBytesOf = read;
  }

  private readonly counters = new Map<string, Counter.Internal>();
  private readonly byListener = new Map<ListenerName, ListenerMetrics>();

  /**
   * Books one request that ended as `outcome` (none: a WebSocket message, which is no request):
   * the calls in it the method policy refused (`refused`), those of them refused as unknown
   * (`unknown`), and the node's time when it was forwarded. Labelled children are looked up once
   * and kept: resolving labels on every call costs more than the count.
   */
  book(listener: ListenerName, outcome: Outcome | undefined, refused: number, unknown: number, upstreamSeconds: number | undefined): void {
    if (outcome !== undefined) this.count(listener, outcome);
    if (refused === 0 && upstreamSeconds === undefined) return;
    const children = this.childrenOf(listener);
    if (refused > 0) children.refused.inc(refused);
    if (unknown > 0) children.unknown.inc(unknown);
    if (upstreamSeconds !== undefined) children.upstream.observe(upstreamSeconds);
  }

  private count(listener: ListenerName, outcome: Outcome): void {
    const key = `${listener}:${outcome}`;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = this.requests.labels({ listener, outcome });
      this.counters.set(key, counter);
    }
    counter.inc();
  }

  private childrenOf(listener: ListenerName): ListenerMetrics {
    let children = this.byListener.get(listener);
    if (!children) {
      children = {
        refused: this.refusedCalls.labels({ listener }),
        unknown: this.unknownMethodCalls.labels({ listener }),
        upstream: this.upstreamSeconds.labels({ listener }),
      };
      this.byListener.set(listener, children);
    }
    return children;
  }
}

/** A listener's labelled children of the per-listener metrics. */
interface ListenerMetrics {
  refused: Counter.Internal;
  unknown: Counter.Internal;
  upstream: Histogram.Internal<'listener'>;
}
