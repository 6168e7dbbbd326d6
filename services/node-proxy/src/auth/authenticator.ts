import { createHash, timingSafeEqual } from 'node:crypto';
import type { RevocationCheck, TokenClaims, TokenVerifier } from '@cloud/auth';
import type { Clock } from '@cloud/auth';
import { ServiceUnavailableError } from '@cloud/http';
import type { Route } from '../routing/route-table';

/**
 * Who a caller is: the node's owner, through one of the node's Basic credentials
 * (`credentialId`, for usage per credential) or with a client access token (no credential).
 */
export type AuthResult = { ok: true; userId: string; credentialId?: string } | { ok: false; reason: string };

/** Verified Authorization headers kept per node; more than this and the oldest goes. */
const HEADERS_PER_NODE = 32;
/** Verified client tokens kept at once; more than this and the oldest goes. */
const TOKENS_KEPT = 10_000;

/**
 * Checks a caller's Authorization header against a node: Basic with the node's own credentials,
 * or, for a `jwt` node, Bearer with a client access token of the node's owner. Only successes
 * are cached (so wrong guesses cannot grow memory): a Basic header or URL token until the
 * node's route changes, a client token until it expires; revocations are checked on every call.
 */
export class Authenticator {
  /** Per node: verified credentials (a Basic header, a URL token) → the credential they named. */
  private readonly verifiedHeaders = new Map<string, Map<string, string>>();
  private readonly verifiedTokens = new Map<string, TokenClaims>();

  constructor(
    private readonly tokens: { verifier: TokenVerifier; isRevoked: RevocationCheck },
    private readonly clock: Clock,
  ) {}

  async check(route: Route, authorization: string | undefined): Promise<AuthResult> {
    if (!authorization) return { ok: false, reason: 'credentials are required' };
    const known = this.verifiedHeaders.get(route.nodeId)?.get(authorization);
    if (known !== undefined) return { ok: true, userId: route.userId, credentialId: known };
    if (authorization.startsWith(`${URL_TOKEN_SCHEME} `)) return this.checkUrlToken(route, authorization);
    if (route.jwt) return this.checkBearer(route, authorization);
    return this.checkBasic(route, authorization);
  }

  /** The scheme a 401 for this node names in `WWW-Authenticate`. */
  challenge(route: Route | undefined): string {
    return route?.jwt ? 'Bearer realm="node"' : 'Basic realm="node", charset="UTF-8"';
  }

  /**
   * Whether these credentials were verified for the node before (cache only, no hashing or
   * signature check): what a throttled address may still present. `check` still decides.
   */
  isKnown(route: Route, authorization: string | undefined): boolean {
    if (!authorization) return false;
    if (this.verifiedHeaders.get(route.nodeId)?.has(authorization)) return true;
    return route.jwt && authorization.startsWith('Bearer ') && this.verifiedTokens.has(authorization.slice(7));
  }

  /** Forgets what was verified for a node whose route changed (a credential revoked, deletion). */
  forget(nodeId: string): void {
    this.verifiedHeaders.delete(nodeId);
  }

  /**
   * A URL token is checked against the route itself and then kept like a Basic header, so a
   * rotated or deleted one fails with the route's change (`forget`).
   */
  private checkUrlToken(route: Route, authorization: string): AuthResult {
    const tokenSha256 = urlTokenSha256(authorization);
    const credentialId = tokenSha256 === undefined ? undefined : route.urlTokens.get(tokenSha256);
    if (credentialId === undefined) return { ok: false, reason: 'wrong node token' };
    this.remember(route.nodeId, authorization, credentialId);
    return { ok: true, userId: route.userId, credentialId };
  }

  private remember(nodeId: string, authorization: string, credentialId: string): void {
    const verified = this.verifiedHeaders.get(nodeId) ?? new Map<string, string>();
    if (verified.size >= HEADERS_PER_NODE) verified.delete(verified.keys().next().value!);
    verified.set(authorization, credentialId);
    this.verifiedHeaders.set(nodeId, verified);
  }

  private checkBasic(route: Route, authorization: string): AuthResult {
    const credentials = parseBasic(authorization);
    const first = route.basicCredentials[0];
    if (!credentials || !first) return { ok: false, reason: 'Basic node credentials are required' };
    const presented = createHash('sha256').update(credentials.password, 'utf8').digest();
    const credential = route.basicCredentials.find((each) => each.user === credentials.user);
    // Compare a password whatever the user name, so the time taken tells nothing.
    if (!(timingSafeEqual(presented, (credential ?? first).passwordSha256) && credential)) return { ok: false, reason: 'wrong node credentials' };
    this.remember(route.nodeId, authorization, credential.id);
    return { ok: true, userId: route.userId, credentialId: credential.id };
  }

  private async checkBearer(route: Route, authorization: string): Promise<AuthResult> {
    const match = /^Bearer ([\w.-]+)$/.exec(authorization);
    if (!match) return { ok: false, reason: 'this node takes a client access token (Bearer)' };
    const token = match[1]!;
    let claims = this.verifiedTokens.get(token);
    if (claims && claims.exp * 1000 <= this.clock()) {
      this.verifiedTokens.delete(token);
      claims = undefined;
    }
    if (!claims) {
      try {
        claims = await this.tokens.verifier.verify(token, 'client');
      } catch (error) {
        // The keys could not be read (the accounts service away): no verdict on the token, and no failed login.
        if (error instanceof ServiceUnavailableError) throw error;
        return { ok: false, reason: error instanceof Error ? error.message : 'invalid token' };
      }
      if (this.verifiedTokens.size >= TOKENS_KEPT) this.verifiedTokens.delete(this.verifiedTokens.keys().next().value!);
      this.verifiedTokens.set(token, claims);
    }
    if (await this.tokens.isRevoked(claims)) return { ok: false, reason: 'token revoked' };
    if (claims.sub !== route.userId) return { ok: false, reason: "the token is not the node owner's" };
    return { ok: true, userId: route.userId };
  }
}

/**
 * How a URL token travels inside the proxy once taken off the path (`takeUrlToken`): as the
 * request's credentials, so every check that reads them (the first call, a WebSocket's every
 * message and route change) holds the token to the node's current route.
 */
export const URL_TOKEN_SCHEME = 'UrlToken';

/** A URL token: `nt_` and 43 base64url characters (32 random bytes). */
export const URL_TOKEN_PATTERN = /^nt_[A-Za-z0-9_-]{43}$/;

/** The hex SHA-256 of the URL token these credentials carry (what routes list); undefined for other credentials. */
export function urlTokenSha256(authorization: string): string | undefined {
  if (!authorization.startsWith(`${URL_TOKEN_SCHEME} `)) return undefined;
  const token = authorization.slice(URL_TOKEN_SCHEME.length + 1);
  return URL_TOKEN_PATTERN.test(token) ? createHash('sha256').update(token, 'utf8').digest('hex') : undefined;
}

/** `user:password` from a Basic header; the user name is what the proxy routes by when the Host is no node address. */
export function parseBasic(authorization: string): { user: string; password: string } | undefined {
  if (!/^Basic /i.test(authorization)) return undefined;
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
