import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ListenerName } from './routing/interfaces';

/**
 * What a proxy call ended as. Labels are only ever these values and the listener names, never a
 * node id, a method or a host, so no caller can grow the label sets.
 */
export type Outcome =
  | 'forwarded'
  | 'refused_method'
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'not_ready'
  | 'rate_limited'
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
  readonly upstreamSeconds = new Histogram({
    name: 'node_proxy_upstream_duration_seconds',
    help: 'Time from forwarding a request to the node until its answer is passed on',
    labelNames: ['listener'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly routes = new Gauge({ name: 'node_proxy_routes', help: 'Nodes in the routing table', registers: [this.registry] });
  readonly webSockets = new Gauge({ name: 'node_proxy_websockets', help: 'Open WebSocket connections to nodes', registers: [this.registry] });

  private readonly counters = new Map<string, Counter.Internal>();
  private readonly timers = new Map<ListenerName, Histogram.Internal<'listener'>>();

  // Labelled children are looked up once and kept: resolving labels on every call costs more than the count.
  count(listener: ListenerName, outcome: Outcome): void {
    const key = `${listener}:${outcome}`;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = this.requests.labels({ listener, outcome });
      this.counters.set(key, counter);
    }
    counter.inc();
  }

  /** Starts timing a forwarded call; the returned function records it. */
  timeUpstream(listener: ListenerName): () => void {
    let timer = this.timers.get(listener);
    if (!timer) {
      timer = this.upstreamSeconds.labels({ listener });
      this.timers.set(listener, timer);
    }
    return timer.startTimer();
  }
}
