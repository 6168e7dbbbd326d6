import { Router } from 'express';
import { basicGuard, toPublicJwk, type SigningKey } from '@cloud/auth';
import { attributeCallTo } from '@cloud/call-events';
import { parseInput } from '@cloud/http';
import type { ClientKeysService } from '../../domain/client-keys';
import type { UsersService } from '../../domain/users';
import { loginBody, tokenRequestBody } from './schemas';

export function authRouter(users: UsersService, clientKeys: ClientKeysService, signingKey: SigningKey): Router {
  const router = Router();

  const logIn = basicGuard(
    async (login, password, req) => {
      // The body is optional: `{code}` is the second factor, for accounts with two-factor login on.
      const { code } = parseInput(loginBody, req.body ?? {}, 'body');
      const user = await users.findByIdOrEmail(login);
      if (user) attributeCallTo(req.res!, user.id);
      return users.authenticate(user, login, password, req.ip, code);
    },
    // Credentials that cannot name an account (refused before any lookup: a NUL is a 400, an
    // undecodable header a 401) still count, against the address.
    (req) => users.countMalformedLogin(req.ip),
  );

  router.post('/auth', logIn, async (_req, res) => {
    res.json({ accessToken: await users.issueAccountToken(res.locals.userId!) });
  });

  router.post('/auth/token', async (req, res) => {
    const body = parseInput(tokenRequestBody, req.body, 'body');
    const identified = (userId: string) => attributeCallTo(res, userId);
    const tokens =
      body.grantType === 'clientCredentials'
        ? await clientKeys.exchangeCredentials(body.clientId, body.clientSecret, identified)
        : await clientKeys.refresh(body.refreshToken, identified);
    res.json(tokens);
  });

  // The public keys other services verify tokens with.
  const jwks = { keys: [toPublicJwk(signingKey.publicKey)] };
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.set('cache-control', 'public, max-age=300').json(jwks);
  });

  return router;
}
