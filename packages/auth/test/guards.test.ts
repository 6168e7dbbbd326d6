import express from 'express';
import request from 'supertest';
import { createLogger } from '@cloud/logging';
import { errorHandler, UnauthorizedError } from '@cloud/http';
import { authOf, basicGuard, bearerGuard, generateSigningKeyPem, loadSigningKey, staticKeys, TokenSigner, TokenVerifier } from '../src';

const key = loadSigningKey(generateSigningKeyPem());
const signer = new TokenSigner(key);
const verifier = new TokenVerifier(staticKeys([key.publicKey]));

function appWith() {
  const app = express();
  const revokedVersions = new Set([7]);
  app.get('/client-only', bearerGuard({ verifier, kind: 'client', isRevoked: async (claims) => revokedVersions.has(claims.ver) }), (_req, res) => {
    res.json({ user: authOf(res).sub, locals: res.locals.userId });
  });
  app.post(
    '/login',
    basicGuard(async (username, password) => {
      if (username === 'user-1' && password === 'correct horse') return 'user-1';
      throw new UnauthorizedError('wrong user or password');
    }),
    (_req, res) => {
      res.json({ user: res.locals.userId });
    },
  );
  app.use(errorHandler(createLogger({ service: 'cloud-test', level: 'silent' })));
  return app;
}

describe('bearerGuard', () => {
  const app = appWith();

  it('admits a token of its kind and exposes the claims', async () => {
    const { token } = signer.sign('client', { sub: 'user-1', ver: 1 });
    const res = await request(app).get('/client-only').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: 'user-1', locals: 'user-1' });
  });

  it.each([
    ['no header', undefined, 'a client access token is required (Authorization: Bearer <token>)'],
    ['a Basic header', 'Basic dXNlcjpwYXNz', 'a client access token is required (Authorization: Bearer <token>)'],
    ['garbage', 'Bearer garbage', 'malformed token'],
    ['an account token', `Bearer ${signer.sign('account', { sub: 'user-1', ver: 1 }).token}`, 'expected a client access token, got an account access token'],
    ['a refresh token', `Bearer ${signer.sign('refresh', { sub: 'user-1', ver: 1 }).token}`, 'expected a client access token, got a client refresh token'],
    ['a revoked token', `Bearer ${signer.sign('client', { sub: 'user-1', ver: 7 }).token}`, 'token has been revoked'],
  ])('answers %s with a JSON 401 and a Bearer challenge', async (_name, header, message) => {
    const req = request(app).get('/client-only');
    if (header) void req.set('authorization', header);
    const res = await req;
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'Unauthorized', message });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="cloud"');
  });
});

describe('basicGuard', () => {
  const app = appWith();

  it('admits good credentials', async () => {
    const res = await request(app).post('/login').auth('user-1', 'correct horse');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: 'user-1' });
  });

  it('answers bad or missing credentials with a JSON 401 and a Basic challenge', async () => {
    const wrong = await request(app).post('/login').auth('user-1', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'Unauthorized', message: 'wrong user or password' });
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="cloud", charset="UTF-8"');
    const missing = await request(app).post('/login');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 'Unauthorized', message: 'HTTP Basic credentials are required' });
  });
});
