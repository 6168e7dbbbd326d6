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
 * Counts failed password checks per account and per client address; past the limit, logins
 * (right password or not) answer 429 until the block ends. A success clears the account's count.
 */
export class LoginThrottle {
  private readonly perAccount: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  constructor(private readonly options: LoginThrottleOptions) {
    const limiter = (keyPrefix: string, points: number): RateLimiterAbstract => {
      const common = { keyPrefix, points, duration: options.windowSeconds, blockDuration: options.blockSeconds };
      if (!options.postgres) return new RateLimiterMemory(common);
      const { db, schema } = options.postgres;
      return new RateLimiterPostgres({ ...common, storeClient: db, storeType: 'knex', schemaName: schema, tableName: 'login_throttle', tableCreated: true });
    };
    this.perAccount = limiter('account', options.maxFailuresPerAccount);
    this.perAddress = limiter('address', options.maxFailuresPerAddress);
  }

  /** Throws 429 when the account or the address has used up its failures. */
  async assertAllowed(account: string, address: string | undefined): Promise<void> {
    const checks: [RateLimiterAbstract, string, number][] = [[this.perAccount, account.toLowerCase(), this.options.maxFailuresPerAccount]];
    if (address) checks.push([this.perAddress, address, this.options.maxFailuresPerAddress]);
    for (const [limiter, key, limit] of checks) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= limit) {
        throw new TooManyRequestsError('too many failed logins; try again later', state.msBeforeNext / 1000);
      }
    }
  }

  async recordFailure(account: string, address: string | undefined): Promise<void> {
    await this.consume(this.perAccount, account.toLowerCase(), this.options.maxFailuresPerAccount);
    if (address) await this.consume(this.perAddress, address, this.options.maxFailuresPerAddress);
  }

  async recordSuccess(account: string): Promise<void> {
    await this.perAccount.delete(account.toLowerCase());
  }

  // The failure that reaches the limit starts the block: blockSeconds from now. (The limiter
  // itself blocks only when consumed past its points, which assertAllowed never lets happen.)
  // Consuming past the limit rejects with the limiter's state; that is a block, not an error.
  private async consume(limiter: RateLimiterAbstract, key: string, limit: number): Promise<void> {
    try {
      const state = await limiter.consume(key);
      if (state.consumedPoints >= limit) await limiter.block(key, this.options.blockSeconds);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    }
  }
}
