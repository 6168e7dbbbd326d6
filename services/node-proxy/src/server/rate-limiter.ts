import { AppError } from '@cloud/http';
import { limitsOf } from '../access/access-rules';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';

/** A node's rate: calls per second sustained, and the burst above it. */
export interface RateLimits {
  ratePerSecond: number;
  burst: number;
}

/** A refusal: when `count` tokens will be there, or none when `count` is over the burst (a smaller batch is needed). */
export type RateAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number | undefined };

/**
 * A token bucket per node: `ratePerSecond` calls sustained, up to `burst` at once. Buckets exist
 * only for routed nodes (`forget` drops a node's), so unknown names cannot grow it.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly options: RateLimits & { now?: () => number }) {}

  /** The operator's rate, every node's unless its owner set a lower one. */
  get limits(): RateLimits {
    return this.options;
  }

  /**
   * Takes `count` tokens (one per call of a batch) all at once or none: a batch is forwarded whole
   * or refused whole, never cut. When they are not there, the seconds until they are. `limits`:
   * the node's own, when its owner lowered them.
   */
  take(nodeId: string, count = 1, limits: RateLimits = this.options): RateAnswer {
    const now = (this.options.now ?? Date.now)();
    const { ratePerSecond, burst } = limits;
    const bucket = this.buckets.get(nodeId) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
    bucket.at = now;
    this.buckets.set(nodeId, bucket);
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: count > burst ? undefined : Math.max(1, Math.ceil((count - bucket.tokens) / ratePerSecond)) };
  }

  forget(nodeId: string): void {
    this.buckets.delete(nodeId);
  }
}

/** What a caller over the rate is told; a batch larger than the burst can never pass, and says so. */
export function rateMessage(limits: RateLimits, count: number): string {
  if (count > limits.burst) return `a batch of ${count} calls is over this node's burst of ${limits.burst} calls; send smaller batches`;
  return `over this node's rate of ${limits.ratePerSecond} calls per second`;
}

/** The rate a node's calls are held to: the operator's, or its owner's lower one. */
export function nodeLimits(context: Pick<ProxyContext, 'limiter'>, route: Route): RateLimits {
  return limitsOf(route.rules, context.limiter.limits);
}

/**
 * Takes the node's rate for `calls` calls (a batch: one token per call, all or none), of which
 * `taken` were taken already (the request's own, when it came in); or throws its 429.
 */
export function takeRate(context: ProxyContext, route: Route, calls = 1, taken = 0): void {
  const limits = nodeLimits(context, route);
  const rate = context.limiter.take(route.nodeId, calls - taken, limits);
  if (rate.allowed) return;
  // A batch over the burst can never pass: no Retry-After to wait for.
  const never = calls > limits.burst;
  const headers: Record<string, string> = never || rate.retryAfterSeconds === undefined ? {} : { 'retry-after': String(rate.retryAfterSeconds) };
  throw new AppError(429, 'TooManyRequests', rateMessage(limits, calls), headers);
}
