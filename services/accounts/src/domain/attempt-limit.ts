import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '@cloud/http';
import { createLimiter, storeKey, type LimitStore } from '../data-access/attempt-counts';

export interface AttemptLimitOptions {
  /** Prefix of this limit's keys in the store; unique per limit. */
  name: string;
  points: number;
  windowSeconds: number;
  /** Refuse for this long once over the limit; by default until the window ends. */
  blockSeconds?: number;
  /** The message of the 429. */
  refusal: string;
}

/**
 * At most `points` attempts per key and window, counted atomically in the store before the
 * attempt is handled, so attempts sent in parallel cannot slip past the limit. Over the limit,
 * `take` throws 429 TooManyRequests with Retry-After.
 */
export class AttemptLimit {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    store: LimitStore,
    private readonly options: AttemptLimitOptions,
  ) {
    this.limiter = createLimiter(store, options);
  }

  async take(key: string): Promise<void> {
    try {
      await this.limiter.consume(storeKey(key));
    } catch (refusal) {
      // A limiter refuses by rejecting with its state (a RateLimiterRes); anything else is a store error.
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      throw new TooManyRequestsError(this.options.refusal, refusal.msBeforeNext / 1000);
    }
  }

  /** Gives one attempt back (it turned out to be legitimate). */
  async giveBack(key: string): Promise<void> {
    await this.limiter.reward(storeKey(key), 1);
  }

  /** Forgets the key's count. */
  async clear(key: string): Promise<void> {
    await this.limiter.delete(storeKey(key));
  }
}
