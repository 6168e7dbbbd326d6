import { performance } from 'node:perf_hooks';
import type { Checked } from '../json-rpc/json-rpc';
import type { Outcome } from '../metrics';
import type { ListenerName } from '../routing/interfaces';
import { CallTally } from '../usage/call-tally';
import { countRefusedCalls } from '../usage/json-rpc-usage';
import type { UsageKey } from '../usage/usage-meter';
import type { ProxyContext } from './proxy-context';

/** Longest method name a debug line repeats: a caller chooses it, up to the body limit. */
const LOGGED_NAME_LENGTH = 80;

/**
 * What one request to a node came to, filled in along its way and booked once, at its end
 * (`bookCall`), to usage and metrics: whose usage it is (the node once found, the caller once let
 * in), its calls by method and outcome, whether it was served and with how many bytes, the calls
 * the method policy refused, the node's time, and what it ended as. A WebSocket message is booked
 * the same way, with no outcome (it is no request in the metrics).
 */
export class CallRecord {
  /** Whose usage the request is: the node once it is found, the caller's credential once let in; none before. */
  caller: UsageKey | undefined;
  /** What the request ended as, for `node_proxy_requests_total`. */
  outcome: Outcome | undefined;
  /** Its calls by method bucket and usage outcome. */
  readonly calls = new CallTally();
  /** Set when it was served (answered, by the node or the proxy): it counts as a request, with its bytes. */
  served: { blocked: number; bytesIn: number; bytesOut: number } | undefined;
  /** Calls the method policy refused. */
  refused = 0;
  /** The names of those it refused as in neither list, as sent (for the metrics and the debug log). */
  unknown: readonly string[] = [];
  /** Calls answered from the cache or the tracked head, without the node (counted in `calls` too). */
  cachedCalls = 0;
  /** A pool's request: the member node that served it (the last one tried) and how many of its calls it answered. */
  member: { nodeId: string; calls: number } | undefined;
  /** From forwarding to the node until its answer was passed on. */
  upstreamSeconds: number | undefined;
  private forwardedAt = 0;

  constructor(readonly listener: ListenerName) {}

  /** A checked request's calls the method policy refused: counted by the name usage knows them by, and for the metrics. */
  refusals(checked: Checked): void {
    if (checked.refusedCount === 0) return;
    this.refused += checked.refusedCount;
    if (checked.unknown.length > 0) this.unknown = checked.unknown;
    countRefusedCalls(this.calls, checked);
  }

  /** The request goes to the node: its time starts. */
  forwarding(): void {
    this.forwardedAt = performance.now();
  }

  /** The node's answer was passed on (or forwarding failed): its time ends. */
  answered(): void {
    this.upstreamSeconds = (performance.now() - this.forwardedAt) / 1000;
  }
}

/** Books a request (or WebSocket message) once it is over: its usage, its metrics, and the names no list has to the debug log. */
export function bookCall({ metrics, usage, logger }: Pick<ProxyContext, 'metrics' | 'usage' | 'logger'>, record: CallRecord): void {
  if (record.caller) usage.book(record.caller, record.served, record.calls, record.cachedCalls, record.member);
  const { listener, unknown } = record;
  metrics.book(listener, record.outcome, record.refused, unknown.length, record.upstreamSeconds);
  if (unknown.length > 0) logger.debug('refused methods in neither list', { listener, methods: unknown.map((name) => name.slice(0, LOGGED_NAME_LENGTH)) });
}
