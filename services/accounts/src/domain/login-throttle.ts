import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '@cloud/http';

export interface LoginThrottleOptions {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
  blockSeconds: number;
}

/**
 * Counts failed password checks per account and per client address; past the limit, logins
 * (right password or not) answer 429 until the block ends. A success clears the account's count.
 * Counts are kept in this process: with several replicas each counts on its own, which still
 * bounds guessing to replicas × limit per window.
 */
export class LoginThrottle {
  private readonly perAccount: RateLimiterMemory;
  private readonly perAddress: RateLimiterMemory;

  constructor(private readonly options: LoginThrottleOptions) {
    const { windowSeconds, blockSeconds } = options;
    this.perAccount = new RateLimiterMemory({ keyPrefix: 'account', points: options.maxFailuresPerAccount, duration: windowSeconds, blockDuration: blockSeconds });
    this.perAddress = new RateLimiterMemory({ keyPrefix: 'address', points: options.maxFailuresPerAddress, duration: windowSeconds, blockDuration: blockSeconds });
  }

  /** Throws 429 when the account or the address has used up its failures. */
  async assertAllowed(account: string, address: string | undefined): Promise<void> {
    const checks: [RateLimiterMemory, string, number][] = [[this.perAccount, account.toLowerCase(), this.options.maxFailuresPerAccount]];
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
  private async consume(limiter: RateLimiterMemory, key: string, limit: number): Promise<void> {
    try {
      const state = await limiter.consume(key);
      if (state.consumedPoints >= limit) await limiter.block(key, this.options.blockSeconds);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
    }
  }
}
