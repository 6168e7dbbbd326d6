import { RateLimiter } from '../src/server/rate-limiter';

describe('the per-node rate limit', () => {
  it('allows the burst at once, then the sustained rate, per node', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ ratePerSecond: 2, burst: 3, now: () => now });
    const takes = (nodeId: string, count: number) => Array.from({ length: count }, () => limiter.take(nodeId).allowed);
    expect(takes('node-a', 4)).toEqual([true, true, true, false]);
    expect(limiter.take('node-a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(takes('node-b', 3)).toEqual([true, true, true]);
    now += 500; // half a second at 2/s: one more call
    expect(takes('node-a', 2)).toEqual([true, false]);
    now += 60_000; // a long pause refills only up to the burst
    expect(takes('node-a', 4)).toEqual([true, true, true, false]);
    limiter.forget('node-a');
    expect(takes('node-a', 3)).toEqual([true, true, true]);
  });
});

describe('a batch against the rate', () => {
  it('takes one token per call, all at once or none, and tells a batch over the burst it never fits', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({ ratePerSecond: 10, burst: 50, now: () => now });
    expect(limiter.take('node-a', 30)).toEqual({ allowed: true });
    expect(limiter.take('node-a', 30)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Refused whole: the 20 tokens left are still there.
    expect(limiter.take('node-a', 20)).toEqual({ allowed: true });
    expect(limiter.take('node-a', 100)).toEqual({ allowed: false, retryAfterSeconds: undefined });
    now += 5_000;
    expect(limiter.take('node-a', 50)).toEqual({ allowed: true });
  });
});
