import type { RevocationCheck, TokenSigner, TokenVerifier } from '@cloud/auth';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@cloud/http';
import type { ClientKey } from '../data-access/client-keys.repository';
import type { UsersRepository } from '../data-access/users.repository';
import { equalHex, keyedHashHex, randomAlphanumeric } from './credentials';
import type { StandingCredentialsDependencies } from './standing-credentials';

export const CLIENT_ID_LENGTH = 40;
export const CLIENT_SECRET_LENGTH = 80;

export interface NewClientKey {
  clientId: string;
  clientSecret: string;
  createdAt: string;
}

export interface ClientTokens {
  accessToken: string;
  refreshToken: string;
}

/** The client keys, revocations and clock that end a standing credential (deleting a key ends its tokens), and more. */
export interface ClientKeysDependencies extends StandingCredentialsDependencies {
  users: UsersRepository;
  signer: TokenSigner;
  verifier: TokenVerifier;
  isRevoked: RevocationCheck;
  secretHashKey: Buffer;
  maxKeysPerUser: number;
}

const BAD_CLIENT = 'wrong clientId or clientSecret';

/** Client key pairs and the tokens they are traded for (spec section 5 item 3). */
export class ClientKeysService {
  constructor(private readonly deps: ClientKeysDependencies) {}

  /**
   * Makes a key pair for the holder of an account token of `credentialsVersion`; the secret is
   * returned here once and only its keyed hash is kept.
   */
  async create(userId: string, credentialsVersion: number): Promise<NewClientKey> {
    const clientSecret = randomAlphanumeric(CLIENT_SECRET_LENGTH);
    const key: ClientKey = {
      id: randomAlphanumeric(CLIENT_ID_LENGTH),
      userId,
      secretHash: keyedHashHex(this.deps.secretHashKey, clientSecret),
      createdAt: new Date(this.deps.clock()),
    };
    const inserted = await this.deps.keys.insertWithinLimit(key, this.deps.maxKeysPerUser, credentialsVersion);
    if (inserted === 'revoked') throw new UnauthorizedError('token has been revoked');
    if (inserted === 'limit') throw new ForbiddenError(`a user may have at most ${this.deps.maxKeysPerUser} client keys; delete one first`, 'LimitExceeded');
    return { clientId: key.id, clientSecret, createdAt: key.createdAt.toISOString() };
  }

  async list(userId: string): Promise<ClientKey[]> {
    return this.deps.keys.listByUser(userId);
  }

  /** Deletes one of the user's keys; tokens minted from it stop working, here and at every service. Another user's key is 404. */
  async delete(userId: string, clientId: string): Promise<void> {
    const deleted = await this.deps.revocations.revokeWith(
      (trx) => this.deps.keys.deleteOwned(clientId, userId, trx),
      () => ({ kind: 'revocation.client-key-deleted', payload: { userId, clientId } }),
    );
    if (!deleted) throw new NotFoundError('no such client key');
  }

  /**
   * grantType clientCredentials: a client access token and a refresh token. `identified` learns
   * the key's owner as soon as it is known, so even a failed exchange is recorded as their call.
   */
  async exchangeCredentials(clientId: string, clientSecret: string, identified: (userId: string) => void): Promise<ClientTokens> {
    const key = await this.deps.keys.findById(clientId);
    if (key) identified(key.userId);
    const presented = keyedHashHex(this.deps.secretHashKey, clientSecret);
    if (!key || !equalHex(presented, key.secretHash)) throw new UnauthorizedError(BAD_CLIENT);
    const user = await this.deps.users.findById(key.userId);
    if (!user) throw new UnauthorizedError(BAD_CLIENT);
    const subject = { sub: user.id, ver: user.credentialsVersion, cid: key.id };
    return {
      accessToken: this.deps.signer.sign('client', subject).token,
      refreshToken: this.deps.signer.sign('refresh', subject).token,
    };
  }

  /** grantType refreshToken: a new client access token for a valid, unrevoked refresh token. */
  async refresh(refreshToken: string, identified: (userId: string) => void): Promise<ClientTokens> {
    const claims = await this.deps.verifier.verify(refreshToken, 'refresh');
    identified(claims.sub);
    if (await this.deps.isRevoked(claims)) throw new UnauthorizedError('the refresh token has been revoked');
    const accessToken = this.deps.signer.sign('client', { sub: claims.sub, ver: claims.ver, cid: claims.cid }).token;
    return { accessToken, refreshToken };
  }
}
