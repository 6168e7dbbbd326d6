import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '@cloud/db';
import { TooManyRequestsError } from '@cloud/http';
import { sha256Hex } from './credentials';

/**
 * Where attempt counts are kept. A PostgreSQL database (table `login_throttle` of the service
 * schema) shares them between replicas; without one they live in this process, which is exact for
 * the embedded default's single process. (PGlite can't serve the limiter's prepared statements.)
 */
export interface LimitStore {
  postgres?: { db: Database; schema: string };
}

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

/** A limiter over `options.points` per window in `store`. */
export function createLimiter(store: LimitStore, options: { name: string; points: number; windowSeconds: number; blockSeconds?: number }): RateLimiterAbstract {
  const common = { keyPrefix: options.name, points: options.points, duration: options.windowSeconds, blockDuration: options.blockSeconds ?? 0 };
  if (!store.postgres) return new RateLimiterMemory(common);
  const { db, schema } = store.postgres;
  return new RateLimiterPostgres({ ...common, storeClient: db, storeType: 'knex', schemaName: schema, tableName: 'login_throttle', tableCreated: true });
}

/**
 * Keys come from requests (a login may be any string): long ones or ones with bytes PostgreSQL
 * refuses (NUL) are stored as their SHA-256, so a key never breaks the store's 255-character column.
 */
export function storeKey(key: string): string {
  return /^[\x21-\x7e]{1,128}$/.test(key) ? key : `sha256:${sha256Hex(key)}`;
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
