import type { Clock } from '@cloud/auth';
import { AppError } from '@cloud/http';
import type { TwoFactorRepository } from '../data-access/two-factor.repository';
import type { User } from '../data-access/users.repository';
import { totpStep } from './totp';
import type { TwoFactorCrypto } from './two-factor-crypto';

export type SecondFactorResult = 'ok' | 'missing' | 'wrong';

/**
 * Checks the second factor of a user with two-factor login on: a TOTP code of the current step
 * (±1), never one of a step used before, or an unused recovery code, which is then used up.
 */
export class TwoFactorCodes {
  constructor(private readonly deps: { repo: TwoFactorRepository; crypto: TwoFactorCrypto; clock: Clock }) {}

  async check(user: User, code: string | undefined): Promise<SecondFactorResult> {
    if (!user.twoFactorEnabledAt || !user.twoFactorSecret) return 'ok';
    const typed = code?.replace(/\s/g, '') ?? '';
    if (typed === '') return 'missing';
    if (/^\d+$/.test(typed)) {
      const step = totpStep(this.deps.crypto.decrypt(user.id, user.twoFactorSecret), typed, this.deps.clock());
      return step !== undefined && (await this.deps.repo.useStep(user.id, step)) ? 'ok' : 'wrong';
    }
    const used = await this.deps.repo.useRecoveryCode(user.id, this.deps.crypto.hashRecoveryCode(typed), new Date(this.deps.clock()));
    return used ? 'ok' : 'wrong';
  }
}

const BASIC_CHALLENGE = 'Basic realm="cloud", charset="UTF-8"';

/** The refusal of a missing or wrong second factor: 401 at login, 403 when a signed-in user confirms a change. */
export function secondFactorRefusal(result: Exclude<SecondFactorResult, 'ok'>, status: 401 | 403): AppError {
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {};
  return result === 'missing'
    ? new AppError(
        status,
        'TwoFactorRequired',
        'this account has two-factor login: send the code of your authenticator app, or a recovery code, as "code"',
        headers,
      )
    : new AppError(status, 'InvalidTwoFactorCode', 'the two-factor code is wrong, expired or used already', headers);
}
