import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { errorHandler } from '@cloud/http';
import { createLogger } from '@cloud/logging';
import {
  bearerGuard,
  generateSigningKeyPem,
  loadSigningKey,
  remoteJwks,
  staticKeys,
  toPublicJwk,
  TOKEN_LIFETIME_SECONDS,
  TokenSigner,
  TokenVerifier,
} from '../src';

const key = loadSigningKey(generateSigningKeyPem());
const otherKey = loadSigningKey(generateSigningKeyPem());

function fakeClock(start = Date.parse('2026-11-22T10:00:00.000Z')) {
  let now = start;
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

describe('TokenSigner and TokenVerifier', () => {
  it('round-trips the claims of each kind with the spec lifetimes', async () => {
    const clock = fakeClock();
    const signer = new TokenSigner(key, clock);
    const verifier = new TokenVerifier(staticKeys([key.publicKey]), clock);
    for (const kind of ['account', 'client', 'refresh'] as const) {
      const { token } = signer.sign(kind, { sub: 'user-1', ver: 3, cid: 'c'.repeat(40) });
      expect(token.split('.')).toHaveLength(3);
      const claims = await verifier.verify(token, kind);
      expect(claims).toMatchObject({ sub: 'user-1', ver: 3, kind, cid: 'c'.repeat(40), iss: 'cloud-accounts' });
      expect(claims.exp - claims.iat).toBe(TOKEN_LIFETIME_SECONDS[kind]);
      expect(jwt.decode(token, { complete: true })?.header).toMatchObject({ alg: 'ES256', kid: key.kid });
    }
    expect(TOKEN_LIFETIME_SECONDS).toEqual({ account: 43200, client: 3600, refresh: 31536000 });
  });

  it('rejects a token of another kind', async () => {
    const signer = new TokenSigner(key);
    const verifier = new TokenVerifier(staticKeys([key.publicKey]));
    const refresh = signer.sign('refresh', { sub: 'user-1', ver: 0 }).token;
    await expect(verifier.verify(refresh, 'client')).rejects.toMatchObject({
      status: 401,
      message: 'expected a client access token, got a client refresh token',
    });
    const account = signer.sign('account', { sub: 'user-1', ver: 0 }).token;
    await expect(verifier.verify(account, 'client')).rejects.toThrow('expected a client access token, got an account access token');
  });

  it('rejects an expired token (fake clock, no waiting)', async () => {
    const clock = fakeClock();
    const signer = new TokenSigner(key, clock);
    const verifier = new TokenVerifier(staticKeys([key.publicKey]), clock);
    const { token } = signer.sign('client', { sub: 'user-1', ver: 0 });
    clock.advance(TOKEN_LIFETIME_SECONDS.client * 1000 - 1000);
    await expect(verifier.verify(token, 'client')).resolves.toMatchObject({ sub: 'user-1' });
    clock.advance(1000);
    await expect(verifier.verify(token, 'client')).rejects.toThrow('token expired');
  });

  it('rejects forged, tampered and malformed tokens', async () => {
    const verifier = new TokenVerifier(staticKeys([key.publicKey]));
    const forged = new TokenSigner(otherKey).sign('account', { sub: 'user-1', ver: 0 }).token;
    await expect(verifier.verify(forged, 'account')).rejects.toThrow('token signed by an unknown key');

    // A token signed by another key but claiming our kid.
    const [, payload] = new TokenSigner(key).sign('account', { sub: 'user-1', ver: 0 }).token.split('.');
    const reSigned = jwt.sign(JSON.parse(Buffer.from(payload!, 'base64url').toString()) as object, otherKey.privateKey, {
      algorithm: 'ES256',
      keyid: key.kid,
    });
    await expect(verifier.verify(reSigned, 'account')).rejects.toThrow('invalid token');

    const good = new TokenSigner(key).sign('account', { sub: 'user-1', ver: 0 }).token;
    const tampered = good.replace(/\.([\w-]+)\./, (_m, body: string) => `.${body.slice(0, -2)}AA.`);
    await expect(verifier.verify(tampered, 'account')).rejects.toMatchObject({ status: 401 });
    await expect(verifier.verify('not-a-token', 'account')).rejects.toThrow('malformed token');
    // HS256 with the public key as secret: the classic algorithm-confusion attack.
    const confused = jwt.sign({ sub: 'user-1', kind: 'account', ver: 0, iss: 'cloud-accounts' }, 'secret', { keyid: key.kid });
    await expect(verifier.verify(confused, 'account')).rejects.toThrow('invalid token');
  });
});

describe('remoteJwks', () => {
  let server: Server;
  let published = [toPublicJwk(key.publicKey)];
  let fetches = 0;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('verifies with fetched keys, picks up a rotated key, and rate-limits refetches of unknown kids', async () => {
    const clock = fakeClock();
    const verifier = new TokenVerifier(remoteJwks(url, { clock, minRefreshIntervalMs: 30_000 }), clock);
    const token = new TokenSigner(key, clock).sign('client', { sub: 'user-9', ver: 1 }).token;
    await expect(verifier.verify(token, 'client')).resolves.toMatchObject({ sub: 'user-9' });
    await expect(verifier.verify(token, 'client')).resolves.toMatchObject({ sub: 'user-9' });
    expect(fetches).toBe(1);

    // The accounts service rotates to a new key; the first token signed with it causes one refetch.
    const rotatedToken = new TokenSigner(otherKey, clock).sign('client', { sub: 'user-9', ver: 1 }).token;
    await expect(verifier.verify(rotatedToken, 'client')).rejects.toThrow('unknown key'); // within the interval
    expect(fetches).toBe(1);
    published = [toPublicJwk(key.publicKey), toPublicJwk(otherKey.publicKey)];
    clock.advance(30_000);
    await expect(verifier.verify(rotatedToken, 'client')).resolves.toMatchObject({ sub: 'user-9' });
    expect(fetches).toBe(2);
  });

  it('answers calls that come while the keys are being fetched with the fetched key, not "unknown key"', async () => {
    // The first calls after a service starts arrive together: the fault suite saw the second one
    // refused 401 "token signed by an unknown key" while the first one's fetch was under way.
    published = [toPublicJwk(key.publicKey)];
    const before = fetches;
    const clock = fakeClock();
    const verifier = new TokenVerifier(remoteJwks(url, { clock, minRefreshIntervalMs: 30_000 }), clock);
    const token = new TokenSigner(key, clock).sign('client', { sub: 'user-7', ver: 1 }).token;
    const results = await Promise.all([verifier.verify(token, 'client'), verifier.verify(token, 'client'), verifier.verify(token, 'client')]);
    expect(results.map((claims) => claims.sub)).toEqual(['user-7', 'user-7', 'user-7']);
    expect(fetches - before).toBe(1);
  });
});

describe('remoteJwks while the accounts service is away', () => {
  // Issue 29, item 5: nodes and staking started while accounts was down answered every valid
  // token 401 "unknown key" for 30 s, because the failed first fetch armed the refetch limit.
  const jwks = () => createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [toPublicJwk(key.publicKey)] })));
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A port nothing listens on (yet): connections to it are refused, as to a stopped service. */
  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it('answers 503 (not 401) until the keys can be read, retries soon after a failed fetch, and is ready once they are', async () => {
    const port = await freePort();
    const clock = fakeClock();
    const keys = remoteJwks(`http://127.0.0.1:${port}/.well-known/jwks.json`, {
      clock,
      minRefreshIntervalMs: 30_000,
      retryDelayMs: 200,
      maxRetryDelayMs: 1_000,
    });
    const verifier = new TokenVerifier(keys, clock);
    const app = express();
    app.get('/nodes', bearerGuard({ verifier, kind: 'client' }), (_req, res) => {
      res.json({ ok: true });
    });
    app.use(errorHandler(createLogger({ service: 'cloud-test', level: 'silent' })));
    const { token } = new TokenSigner(key, clock).sign('client', { sub: 'user-5', ver: 1 });

    const refused = await request(app).get('/nodes').set('authorization', `Bearer ${token}`);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      code: 'KeysUnavailable',
      message: 'the token signing keys cannot be read from the accounts service yet; try again shortly',
    });
    expect(refused.headers['retry-after']).toBe('1');
    await expect(keys.checkReady()).rejects.toMatchObject({ status: 503 });

    // The accounts service is back; the next try after the backoff (not the 30 s refresh interval) reads the keys.
    server = jwks();
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    clock.advance(1_000);
    await expect(keys.checkReady()).resolves.toBeUndefined();
    const admitted = await request(app).get('/nodes').set('authorization', `Bearer ${token}`);
    expect(admitted.status).toBe(200);
    expect(admitted.body).toEqual({ ok: true });
  });

  it('backs off between failed fetches, and still refuses 401 a kid missing from a freshly fetched key set', async () => {
    let answers = 0;
    server = createServer((_req, res) => {
      answers += 1;
      if (answers === 1) res.writeHead(502).end();
      else res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [toPublicJwk(key.publicKey)] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const clock = fakeClock();
    const keys = remoteJwks(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`, { clock, retryDelayMs: 200 });
    const verifier = new TokenVerifier(keys, clock);
    const token = new TokenSigner(key, clock).sign('client', { sub: 'user-6', ver: 1 }).token;
    const forged = new TokenSigner(otherKey, clock).sign('client', { sub: 'user-6', ver: 1 }).token;

    await expect(verifier.verify(token, 'client')).rejects.toMatchObject({ status: 503, code: 'KeysUnavailable' });
    await expect(verifier.verify(token, 'client')).rejects.toMatchObject({ status: 503 }); // within the backoff: no fetch
    expect(answers).toBe(1);
    clock.advance(200);
    await expect(verifier.verify(token, 'client')).resolves.toMatchObject({ sub: 'user-6' });
    await expect(verifier.verify(forged, 'client')).rejects.toMatchObject({ status: 401, message: 'token signed by an unknown key' });
    expect(answers).toBe(2);
  });
});
