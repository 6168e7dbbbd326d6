import jwt from 'jsonwebtoken';
import { UnauthorizedError } from '@cloud/http';
import { systemClock, type Clock } from './clock';
import type { PublicKeyResolver } from './key-resolvers';
import { TOKEN_ALGORITHM, TOKEN_ISSUER, TOKEN_KINDS, type TokenClaims, type TokenKind } from './tokens';

const TOKEN_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** Checks a token's signature, issuer, expiry and kind. Every service that takes tokens has one. */
export class TokenVerifier {
  constructor(
    private readonly keys: PublicKeyResolver,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The token's claims, or an UnauthorizedError saying what is wrong with it. */
  async verify(token: string, expectedKind: TokenKind): Promise<TokenClaims> {
    if (!TOKEN_SHAPE.test(token)) throw new UnauthorizedError('malformed token');
    let kid: string | undefined;
    try {
      kid = jwt.decode(token, { complete: true })?.header.kid;
    } catch {
      throw new UnauthorizedError('malformed token'); // a header or payload that is not JSON
    }
    if (!kid) throw new UnauthorizedError('malformed token');
    const key = await this.keys.resolve(kid);
    if (!key) throw new UnauthorizedError('token signed by an unknown key');

    let payload: unknown;
    try {
      payload = jwt.verify(token, key, {
        algorithms: [TOKEN_ALGORITHM],
        issuer: TOKEN_ISSUER,
        clockTimestamp: Math.floor(this.clock() / 1000),
      });
    } catch (error) {
      if (error instanceof jwt.TokenExpiredError) throw new UnauthorizedError('token expired');
      throw new UnauthorizedError('invalid token');
    }
    const claims = payload as Partial<TokenClaims>;
    if (typeof claims.sub !== 'string' || typeof claims.ver !== 'number' || !TOKEN_KINDS.includes(claims.kind as TokenKind)) {
      throw new UnauthorizedError('invalid token');
    }
    if (claims.kind !== expectedKind) {
      throw new UnauthorizedError(`expected ${describeKind(expectedKind)}, got ${describeKind(claims.kind as TokenKind)}`);
    }
    return claims as TokenClaims;
  }
}

/** The kind in words, with its article: "an account access token". */
export function describeKind(kind: TokenKind): string {
  return { account: 'an account access token', client: 'a client access token', refresh: 'a client refresh token' }[kind];
}
