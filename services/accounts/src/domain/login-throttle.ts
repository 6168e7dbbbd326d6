import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '@cloud/db';
import { TooManyRequestsError } from '@cloud/http';

export interface LoginThrottleOptions {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
  blockSeconds: number;
  /**
   * Where counts are kept. A PostgreSQL database (table `login_throttle` of the service schema)
   * shares them between replicas; without one they live in this process, which is exact for the
   * embedded default's single process. (PGlite can't serve the limiter's prepared statements.)
   */
  postgres?: { db: Database; schema: string };
}

/**
 * Limits password guessing per account and per client address. Every attempt is counted before
 * its password is checked, atomically in the store, so guesses sent in parallel cannot slip past
 * the limit; a successful attempt clears the account's count and gives the address its attempt
 * back. Past the limit, attempts (right password or not) answer 429 for `blockSeconds`.
 */
export class LoginThrottle {
  private readonly perAccount: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  constructor(options: LoginThrottleOptions) {
    const limiter = (keyPrefix: string, points: number): RateLimiterAbstract => {
      // The limiter blocks for blockDuration from the first attempt past its points.
      const common = { keyPrefix, points, duration: options.windowSeconds, blockDuration: options.blockSeconds };
      if (!options.postgres) return new RateLimiterMemory(common);
      const { db, schema } = options.postgres;
      return new RateLimiterPostgres({ ...common, storeClient: db, storeType: 'knex', schemaName: schema, tableName: 'login_throttle', tableCreated: true });
    };
    this.perAccount = limiter('account', options.maxFailuresPerAccount);
    this.perAddress = limiter('address', options.maxFailuresPerAddress);
  }

  /** Counts an attempt for the account and the address; throws 429 when either is over its limit. */
  async attempt(account: string, address: string | undefined): Promise<void> {
    await take(this.perAccount, account.toLowerCase());
    if (address) await take(this.perAddress, address);
  }

  /** The attempt's password was right: the account starts afresh and the address gets its attempt back. */
  async succeeded(account: string, address: string | undefined): Promise<void> {
    await this.perAccount.delete(account.toLowerCase());
    if (address) await this.perAddress.reward(address, 1);
  }
}

// A limiter refuses by rejecting with its state (a RateLimiterRes); anything else is a store error.
async function take(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (refusal) {
    if (!(refusal instanceof RateLimiterRes)) throw refusal;
    throw new TooManyRequestsError('too many failed logins; try again later', refusal.msBeforeNext / 1000);
  }
}
