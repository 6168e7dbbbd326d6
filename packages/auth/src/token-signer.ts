import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { systemClock, type Clock } from './clock';
import type { SigningKey } from './keys';
import { TOKEN_ALGORITHM, TOKEN_ISSUER, TOKEN_LIFETIME_SECONDS, type TokenClaims, type TokenKind } from './tokens';

export interface TokenSubject {
  sub: string;
  ver: number;
  cid?: string;
}

/** Makes tokens. Only the accounts service holds a signer (and the private key). */
export class TokenSigner {
  constructor(
    private readonly key: SigningKey,
    private readonly clock: Clock = systemClock,
  ) {}

  sign(kind: TokenKind, subject: TokenSubject): { token: string; claims: TokenClaims } {
    const iat = Math.floor(this.clock() / 1000);
    const claims: TokenClaims = {
      sub: subject.sub,
      kind,
      ver: subject.ver,
      ...(subject.cid === undefined ? {} : { cid: subject.cid }),
      jti: randomUUID(),
      iat,
      exp: iat + TOKEN_LIFETIME_SECONDS[kind],
      iss: TOKEN_ISSUER,
    };
    const token = jwt.sign(claims, this.key.privateKey, { algorithm: TOKEN_ALGORITHM, keyid: this.key.kid });
    return { token, claims };
  }
}
