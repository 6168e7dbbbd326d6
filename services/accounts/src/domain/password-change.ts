import type { Transaction } from '@cloud/db';
import { InvalidInputError } from '@cloud/http';
import type { User, UsersRepository } from '../data-access/users.repository';
import { passwordWeakness, type PasswordHasher } from './passwords';
import { endStandingCredentials, type EndedCredentials, type StandingCredentialsDependencies } from './standing-credentials';

export interface PasswordChangeDependencies extends StandingCredentialsDependencies {
  users: UsersRepository;
  passwords: PasswordHasher;
}

/**
 * Sets `user`'s new password (a password change or a reset) with the sign-up rules (`field` names
 * it in the 400), ending every standing credential in the same transaction
 * (`endStandingCredentials`: every token issued before, here and at every service, and the user's
 * client keys). `alsoRequire` runs first in that transaction (a reset uses up its token there);
 * when it answers false nothing changes. Resolves to what ended, or undefined if `alsoRequire`
 * refused or another request changed the password first.
 */
export async function replacePassword(
  deps: PasswordChangeDependencies,
  user: User,
  newPassword: string,
  field: string,
  alsoRequire?: (trx: Transaction) => Promise<boolean>,
): Promise<EndedCredentials | undefined> {
  const weakness = passwordWeakness(newPassword, user.email);
  if (weakness) throw new InvalidInputError(`${field}: ${weakness}`);
  const passwordHash = await deps.passwords.hash(newPassword);
  return endStandingCredentials(deps, user.id, async (trx, now) => {
    if (alsoRequire && !(await alsoRequire(trx))) return undefined;
    const changed = await deps.users.changePassword(user.id, user.credentialsVersion, passwordHash, now, trx);
    return changed?.credentialsVersion;
  });
}
