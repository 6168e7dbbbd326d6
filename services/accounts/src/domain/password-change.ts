import type { Clock } from '@cloud/auth';
import type { Transaction } from '@cloud/db';
import { InvalidInputError } from '@cloud/http';
import type { User, UsersRepository } from '../data-access/users.repository';
import { passwordWeakness, type PasswordHasher } from './passwords';
import type { Revocations } from './revocations';

export interface PasswordChangeDependencies {
  users: UsersRepository;
  passwords: PasswordHasher;
  revocations: Revocations;
  clock: Clock;
}

/**
 * Sets `user`'s new password (a password change or a reset) with the sign-up rules (`field` names
 * it in the 400). The credentials version goes up in the same transaction as the
 * `revocation.credentials-changed` record and message, so every token issued before stops working
 * here and at every service. `alsoRequire` runs first in that transaction (a reset uses up its
 * token there); when it answers false nothing changes. Resolves to the changed user, or undefined
 * if `alsoRequire` refused or another request changed the password first.
 */
export async function replacePassword(
  deps: PasswordChangeDependencies,
  user: User,
  newPassword: string,
  field: string,
  alsoRequire?: (trx: Transaction) => Promise<boolean>,
): Promise<User | undefined> {
  const weakness = passwordWeakness(newPassword, user.email);
  if (weakness) throw new InvalidInputError(`${field}: ${weakness}`);
  const passwordHash = await deps.passwords.hash(newPassword);
  return deps.revocations.revokeWith(
    async (trx) => {
      if (alsoRequire && !(await alsoRequire(trx))) return undefined;
      return deps.users.changePassword(user.id, user.credentialsVersion, passwordHash, new Date(deps.clock()), trx);
    },
    (changed) => ({ kind: 'revocation.credentials-changed', payload: { userId: user.id, credentialsVersion: changed.credentialsVersion } }),
  );
}
