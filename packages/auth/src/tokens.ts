/**
 * The three token kinds of the platform (spec section 5). Every token says which kind it is, and
 * a guard accepts exactly one kind: an account token is not a client token, and a refresh token
 * is never an access token.
 */
export type TokenKind = 'account' | 'client' | 'refresh';

export const TOKEN_KINDS: readonly TokenKind[] = ['account', 'client', 'refresh'];

/** Lifetimes fixed by the spec (section 2, Tokens). */
export const TOKEN_LIFETIME_SECONDS: Record<TokenKind, number> = {
  account: 12 * 60 * 60,
  client: 60 * 60,
  refresh: 365 * 24 * 60 * 60,
};

/**
 * The only kind services other than accounts accept (the nodes and staking APIs, the node-proxy),
 * so the only kind their bus-fed revocation sets (`@cloud/revocations`) guard; the accounts service
 * checks account and refresh tokens against its own database.
 */
export const REMOTELY_CHECKED_KIND: TokenKind = 'client';

/**
 * How long a revocation can matter to those services: every token of that kind issued before it
 * has expired by then. The accounts service keeps revocations this long, and a revocation set
 * forgets them after it. A minute on top for clock skew between services.
 */
export const REVOCATION_RELEVANT_MS = (TOKEN_LIFETIME_SECONDS[REMOTELY_CHECKED_KIND] + 60) * 1000;

export const TOKEN_ISSUER = 'cloud-accounts';
export const TOKEN_ALGORITHM = 'ES256';

export interface TokenClaims {
  /** The user id. */
  sub: string;
  kind: TokenKind;
  /**
   * The user's credentials version when the token was made. A password change raises it, so
   * every token carrying an older version is revoked.
   */
  ver: number;
  /** For client and refresh tokens: the client id of the key they were minted from. */
  cid?: string;
  /** Unique token id. */
  jti: string;
  iat: number;
  exp: number;
  iss: string;
}
