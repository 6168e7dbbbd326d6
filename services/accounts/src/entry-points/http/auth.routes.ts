import { z } from 'zod';
import { basicGuard, toPublicJwk } from '@cloud/auth';
import { attributeCallTo } from '@cloud/call-events';
import { errorResponse, jsonResponse, parseInput, type RouteAuth } from '@cloud/http';
import { accountsRoute, invalidInput, type AccountsRouteDeps } from './route';
import { accessTokenSchema, clientTokensSchema, loginBody, tokenRequestBody } from './schemas';

/** Logging in: HTTP Basic with the user id or e-mail and password, and the second factor when it is on. */
const logInAuth: RouteAuth<AccountsRouteDeps> = {
  schemes: { basic: { type: 'http', scheme: 'basic', description: 'user id or e-mail address, and password' } },
  security: [{ basic: [] }],
  unauthorized: errorResponse('wrong user id, e-mail or password (Unauthorized); code missing (TwoFactorRequired) or wrong (InvalidTwoFactorCode)'),
  guard: ({ users }) =>
    basicGuard(
      async (login, password, req) => {
        // The second factor is in the body, so the guard reads it (the route parses it again, to the same).
        const { code } = parseInput(loginBody, req.body, 'body');
        const user = await users.findByIdOrEmail(login);
        if (user) attributeCallTo(req.res!, user.id);
        return users.authenticate(user, login, password, req.ip, code);
      },
      // Credentials that cannot name an account (refused before any lookup: a NUL is a 400, an
      // undecodable header a 401) still count, against the address.
      (req) => users.countMalformedLogin(req.ip),
    ),
};

/** Account tokens, client tokens, and the keys that verify them. */
export const authRoutes = [
  accountsRoute({
    method: 'post',
    path: '/auth',
    tags: ['auth'],
    summary: 'Log in with HTTP Basic credentials; returns an Account Access Token (12 hours)',
    description:
      'With two-factor login on, the body carries `{"code": "123456"}`: the code of the authenticator app (the current 30-second ' +
      'step or the one before or after, each step once) or an unused recovery code. Without it the answer is 401 ' +
      '`TwoFactorRequired`, so a client knows to ask for it; a wrong code is 401 `InvalidTwoFactorCode`. Both count as failed logins.',
    auth: logInAuth,
    request: { body: loginBody, bodyRequired: false },
    responses: {
      200: jsonResponse('the account access token', accessTokenSchema),
      400: invalidInput,
      403: errorResponse('e-mail not verified yet (UserNotVerified)'),
      429: errorResponse('too many failed logins from this address (TooManyRequests); see the throttle table in the README'),
    },
    handler: async ({ res, deps }) => {
      res.json({ accessToken: await deps.users.issueAccountToken(res.locals.userId!) });
    },
  }),
  accountsRoute({
    method: 'post',
    path: '/auth/token',
    tags: ['auth'],
    summary: 'Trade client credentials for client tokens, or a refresh token for a new access token',
    request: { body: tokenRequestBody },
    responses: {
      200: jsonResponse('client access token (1 hour) and refresh token (1 year)', clientTokensSchema),
      400: errorResponse('unknown grantType or missing field (InvalidInput)'),
      401: errorResponse('wrong client credentials, or an invalid, expired or revoked refresh token'),
    },
    handler: async ({ body, res, deps }) => {
      const identified = (userId: string) => attributeCallTo(res, userId);
      const tokens =
        body.grantType === 'clientCredentials'
          ? await deps.clientKeys.exchangeCredentials(body.clientId, body.clientSecret, identified)
          : await deps.clientKeys.refresh(body.refreshToken, identified);
      res.json(tokens);
    },
  }),
  // The public keys other services verify tokens with.
  accountsRoute({
    method: 'get',
    path: '/.well-known/jwks.json',
    tags: ['auth'],
    summary: 'Public keys that verify tokens (JWK Set)',
    responses: { 200: jsonResponse('the key set', z.object({ keys: z.array(z.record(z.string(), z.string())) })) },
    handler: ({ res, deps }) => {
      res.set('cache-control', 'public, max-age=300').json({ keys: [toPublicJwk(deps.signingKey.publicKey)] });
    },
  }),
];
