import type { RevocationCheck } from '@cloud/auth';
import type { ClientKeysRepository } from '../data-access/client-keys.repository';
import type { UsersRepository } from '../data-access/users.repository';

/**
 * The accounts service's own revocation check, read from its database: a token dies with its
 * user, with a password change (credentials version), and, for client and refresh tokens, with
 * the client key it was minted from. Other services learn the same facts over the bus.
 */
export function databaseRevocationCheck(users: UsersRepository, clientKeys: ClientKeysRepository): RevocationCheck {
  return async (claims) => {
    const user = await users.findById(claims.sub);
    if (!user || user.credentialsVersion !== claims.ver) return true;
    if (claims.cid === undefined) return claims.kind !== 'account';
    const key = await clientKeys.findById(claims.cid);
    return !key || key.userId !== claims.sub;
  };
}
