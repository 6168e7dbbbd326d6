/**
 * A token bucket per node: `ratePerSecond` calls sustained, up to `burst` at once. Buckets exist
 * only for routed nodes (`forget` drops a node's), so unknown names cannot grow it.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly options: { ratePerSecond: number; burst: number; now?: () => number }) {}

  /** Takes one token; when none is left, the seconds until one is. */
  take(nodeId: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = (this.options.now ?? Date.now)();
    const { ratePerSecond, burst } = this.options;
    const bucket = this.buckets.get(nodeId) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * ratePerSecond);
    bucket.at = now;
    this.buckets.set(nodeId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)) };
  }

  forget(nodeId: string): void {
    this.buckets.delete(nodeId);
  }
}
