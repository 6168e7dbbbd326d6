import type { Request, RequestHandler, Response } from 'express';
import { Passport } from 'passport';
import { BasicStrategy } from 'passport-http';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { InvalidInputError, UnauthorizedError, unstorableTextProblem } from '@cloud/http';
import type { TokenVerifier } from './token-verifier';
import { describeKind } from './token-verifier';
import type { TokenClaims, TokenKind } from './tokens';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** Claims of the verified bearer token. */
      auth?: TokenClaims;
      /** The user the call belongs to, once known (read by call recording). */
      userId?: string;
    }
  }
}

/** Says whether a verified token has since been revoked (key deleted, password changed). */
export type RevocationCheck = (claims: TokenClaims) => Promise<boolean>;

/** The claims a bearer guard put on the response; only call it behind one. */
export function authOf(res: Response): TokenClaims {
  const { auth } = res.locals;
  if (!auth) throw new Error('authOf() called on a route without a bearer guard');
  return auth;
}

const REALM = 'cloud';

// passport-http answers a missing header with fail(challenge) and one it cannot decode with
// fail(400); a verify function that rejects with an UnauthorizedError passes it through as the
// error. Either way we answer with our JSON error instead of passport's plain-text 401.
function runStrategy(
  passport: InstanceType<typeof Passport>,
  name: string,
  challenge: string,
  missing: string,
  onUndecodable: (req: Request) => Promise<void> = () => Promise.resolve(),
): RequestHandler {
  return (req, res, next) => {
    const authenticate = passport.authenticate(name, { session: false }, (error: unknown, user: unknown, _info: unknown, status: unknown) => {
      // Every 401 of the guard carries its scheme's challenge, whoever raised it.
      if (error instanceof UnauthorizedError) error.headers['WWW-Authenticate'] = challenge;
      if (error) return next(error);
      if (user) return next();
      const refuse = () => next(new UnauthorizedError(missing, challenge));
      // A header that is there but names no one (undecodable, `Basic` alone, an empty user or
      // password) is a failed try too; only a request without one is how a client starts.
      if (status === 400 || req.headers.authorization !== undefined) onUndecodable(req).then(refuse, next);
      else refuse();
    }) as RequestHandler;
    authenticate(req, res, next);
  };
}

/** A guard that admits requests bearing a valid, unrevoked token of one kind. */
export function bearerGuard(options: { verifier: TokenVerifier; kind: TokenKind; isRevoked?: RevocationCheck }): RequestHandler {
  const { verifier, kind, isRevoked } = options;
  const passport = new Passport();
  const challenge = `Bearer realm="${REALM}"`;
  passport.use(
    'bearer',
    new BearerStrategy({ passReqToCallback: true }, (req: Request, token: string, done: (error: unknown, user?: unknown) => void) => {
      verifier
        .verify(token, kind)
        .then(async (claims) => {
          if (isRevoked && (await isRevoked(claims))) throw new UnauthorizedError('token has been revoked');
          req.res!.locals.auth = claims;
          req.res!.locals.userId = claims.sub;
          done(null, claims);
        })
        .catch(done);
    }),
  );
  return runStrategy(passport, 'bearer', challenge, `${describeKind(kind)} is required (Authorization: Bearer <token>)`);
}

/**
 * A guard for public routes: a request without an Authorization header passes as anonymous; one
 * with it must pass `guard` (a wrong, expired or revoked token is still refused).
 */
export function optionalGuard(guard: RequestHandler): RequestHandler {
  return (req, res, next) => (req.headers.authorization === undefined ? next() : guard(req, res, next));
}

/**
 * Awaited before Basic credentials that cannot name an account are refused: a header that does
 * not decode to user:password, or has an empty user or password (username undefined; answered
 * 401), or a user name no text column can hold (answered 400). A login throttle counts these as
 * failed logins.
 */
export type MalformedCredentialsHook = (req: Request, username: string | undefined) => Promise<void>;

/**
 * A guard for HTTP Basic credentials. `verify` resolves to the user id the credentials belong to,
 * or rejects (typically with an UnauthorizedError); the id is left in `res.locals.userId`.
 */
export function basicGuard(
  verify: (username: string, password: string, req: Request) => Promise<string>,
  onMalformed: MalformedCredentialsHook = () => Promise.resolve(),
): RequestHandler {
  const passport = new Passport();
  const challenge = `Basic realm="${REALM}", charset="UTF-8"`;
  passport.use(
    'basic',
    new BasicStrategy({ passReqToCallback: true }, (req: Request, username: string, password: string, done: (error: unknown, user?: unknown) => void) => {
      const problem = unstorableTextProblem(username);
      const checked =
        problem === undefined
          ? verify(username, password, req)
          : onMalformed(req, username).then(() => Promise.reject(new InvalidInputError(`authorization: the Basic user name ${problem}`)));
      checked
        .then((userId) => {
          req.res!.locals.userId = userId;
          done(null, { id: userId });
        })
        .catch(done);
    }),
  );
  return runStrategy(passport, 'basic', challenge, 'HTTP Basic credentials are required', (req) => onMalformed(req, undefined));
}
