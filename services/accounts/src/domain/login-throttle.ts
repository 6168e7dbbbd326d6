import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '@cloud/http';
import { createLimiter, storeKey, type LimitStore } from '../data-access/attempt-counts';
import { AttemptLimit } from './attempt-limit';

export interface LoginThrottleOptions extends LimitStore {
  /** Failures of one account from one address: the limit that stops a guesser. */
  maxFailuresPerAccountAndAddress: number;
  /** Failures from one address whatever the account: stops one address spraying many accounts. */
  maxFailuresPerAddress: number;
  /**
   * Failures of one account from every address together: slows guessing spread over many
   * addresses. Past it only addresses the account logged in from lately get through.
   */
  maxFailuresPerAccount: number;
  windowSeconds: number;
  blockSeconds: number;
  /** How long a successful login makes its address "known" to the account. */
  knownAddressSeconds: number;
}

const REFUSAL = 'too many failed logins; try again later';

/**
 * Limits password guessing (see the table in the service README) without letting a stranger lock
 * the owner out: wrong guesses count against the (account, address) pair and the address, so they
 * block the guesser, not the account. A per-account ceiling across all addresses slows guessing
 * from many addresses; it refuses only addresses the account has not logged in from lately.
 *
 * Every attempt is counted before its password is checked, so parallel guesses cannot pass the
 * limits; a success clears the pair and gives the address and the account their attempt back.
 */
export class LoginThrottle {
  private readonly perPair: AttemptLimit;
  private readonly perAddress: AttemptLimit;
  private readonly perAccount: AttemptLimit;
  private readonly knownAddresses: RateLimiterAbstract;

  constructor(private readonly options: LoginThrottleOptions) {
    const { windowSeconds, blockSeconds } = options;
    const limit = (name: string, points: number) => new AttemptLimit(options, { name, points, windowSeconds, blockSeconds, refusal: REFUSAL });
    this.perPair = limit('pair', options.maxFailuresPerAccountAndAddress);
    this.perAddress = limit('address', options.maxFailuresPerAddress);
    this.perAccount = limit('account', options.maxFailuresPerAccount);
    this.knownAddresses = createLimiter(options, { name: 'known', points: 1, windowSeconds: options.knownAddressSeconds });
  }

  /**
   * Counts an attempt of `account` from `address` before its password is checked, as a failure
   * until `succeeded` says otherwise; throws 429 when a limit is passed.
   */
  attempt(account: string, address: string | undefined): Promise<void> {
    return this.countFailure(account, address);
  }

  /**
   * Counts a failure: a login too malformed to name an account (`account` undefined: only the
   * address counts), or a wrong second factor after a right password. Throws 429 when a limit is passed.
   */
  async countFailure(account: string | undefined, address: string | undefined): Promise<void> {
    if (address) await this.perAddress.take(address);
    if (account === undefined) return;
    const key = accountKey(account);
    await this.perPair.take(pairKey(key, address));
    try {
      await this.perAccount.take(key);
    } catch (error) {
      if (!(error instanceof TooManyRequestsError) || !(await this.isKnown(key, address))) throw error;
    }
  }

  /** The attempt's password was right: the pair starts afresh, the address becomes known, the counts get the attempt back. */
  async succeeded(account: string, address: string | undefined): Promise<void> {
    const key = accountKey(account);
    await this.perPair.clear(pairKey(key, address));
    await this.perAccount.giveBack(key);
    if (!address) return;
    await this.perAddress.giveBack(address);
    await this.knownAddresses.set(storeKey(pairKey(key, address)), 1, this.options.knownAddressSeconds);
  }

  private async isKnown(key: string, address: string | undefined): Promise<boolean> {
    if (!address) return false;
    return (await this.knownAddresses.get(storeKey(pairKey(key, address)))) !== null;
  }
}

const accountKey = (account: string) => account.toLowerCase();
const pairKey = (account: string, address: string | undefined) => `${account}|${address ?? '-'}`;
