import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@cloud/config';
import { request } from 'node:https';
import { startPlatform, type RunningPlatform } from '../src';
import { ANY_PORTS, verificationFor } from '../src/testing';

/** A call over HTTPS to `address` (resolved to loopback), trusting the proxy's own certificate: a JSON-RPC POST, or a GET without `call`. */
function proxyCall(
  proxy: RunningPlatform['proxy'],
  address: string,
  port: number,
  credentials: string,
  call?: unknown,
  path = '/',
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        servername: address,
        port,
        method: call === undefined ? 'GET' : 'POST',
        path,
        ca: proxy.certificate,
        headers: { host: `${address}:${port}`, authorization: `Basic ${Buffer.from(credentials).toString('base64')}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(call === undefined ? undefined : JSON.stringify(call));
  });
}

/** Polls `read` every 200 ms until `done` holds of its answer, or 30 s pass; returns the last answer. */
async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

describe('startPlatform', () => {
  /** Signs up and verifies a user through the accounts API; their account token. */
  const loggedIn = async (accounts: string, email: string): Promise<{ userId: string; accessToken: string }> => {
    const signUp = await fetch(`${accounts}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse 42', displayName: 'Walker' }),
    });
    expect(signUp.status).toBe(201);
    const { id: userId } = (await signUp.json()) as { id: string };
    const { token } = await verificationFor(dataDir, email);
    expect((await fetch(`${accounts}/users/${userId}/token/${token}`, { method: 'PUT' })).status).toBe(200);
    const login = await fetch(`${accounts}/auth`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${email}:correct horse 42`).toString('base64')}` },
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    return { userId, accessToken };
  };

  /** Headers with a client access token of a new verified user, as steps 1 to 5 of the README make one. */
  const clientHeaders = async (accounts: string, email: string) => {
    const { accessToken } = await loggedIn(accounts, email);
    const key = (await (
      await fetch(`${accounts}/users/me/client-keys`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } })
    ).json()) as Record<string, string>;
    const tokens = await fetch(`${accounts}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grantType: 'clientCredentials', clientId: key.clientId, clientSecret: key.clientSecret }),
    });
    return { authorization: `Bearer ${((await tokens.json()) as { accessToken: string }).accessToken}`, 'content-type': 'application/json' };
  };

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', BCRYPT_ROUNDS: '4', STOP_NODES_ON_SHUTDOWN: 'true', ...ANY_PORTS };

  it('serves every service on its port with the embedded defaults, and stops cleanly', async () => {
    const consoleOrigin = 'http://127.0.0.1:3000';
    const platform = await startPlatform({ ...env, CORS_ORIGINS: consoleOrigin });
    try {
      const health = await fetch(`${platform.urls.accounts}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${platform.urls.accounts}/readyz`);
      expect(ready.status).toBe(200);
      // CORS_ORIGINS reaches every API: a page of that origin may call each with its token.
      for (const api of [platform.urls.accounts, platform.urls.nodes, platform.urls.staking, platform.urls.streams]) {
        const preflight = await fetch(`${api}/users/me`, {
          method: 'OPTIONS',
          headers: { origin: consoleOrigin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
        });
        expect({ api, status: preflight.status, origin: preflight.headers.get('access-control-allow-origin') }).toEqual({
          api,
          status: 204,
          origin: consoleOrigin,
        });
      }
      const signUp = await fetch(`${platform.urls.accounts}/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'walk@example.com', password: 'correct horse 42', displayName: 'Walker' }),
      });
      expect(signUp.status).toBe(201);
    } finally {
      await platform.stop();
    }
    // The embedded default keeps its state under DATA_DIR: the PGlite database, keys, the outbox and the proxy's certificate.
    expect(readdirSync(dataDir).sort()).toEqual(['db', 'keys', 'mail', 'tls']);
    // The e-mail, and its text as it reads (the link copyable, not quoted-printable).
    const mail = readdirSync(path.join(dataDir, 'mail')).sort();
    expect(mail.map((file) => path.extname(file))).toEqual(['.eml', '.txt']);
    expect(readFileSync(path.join(dataDir, 'mail', mail[1]!), 'utf8')).toMatch(/^ +https?:\/\/\S+\/verify\?user=user-[0-9a-f-]+&token=\S+$/m);
    await expect(fetch(`${platform.urls.accounts}/healthz`)).rejects.toThrow();
  });

  it('shares one in-process bus: a client key deleted at accounts is announced on it', async () => {
    const platform = await startPlatform(env);
    const revoked: unknown[] = [];
    try {
      expect(platform.bus.transport).toBe('in-process');
      await platform.bus.subscribe({
        name: 'platform-test',
        bindings: ['revocation.*'],
        handle: async (messages) => {
          revoked.push(...messages.map((message) => ({ kind: message.kind, payload: message.payload })));
        },
      });
      const accounts = platform.urls.accounts!;
      const { userId, accessToken } = await loggedIn(accounts, 'bus@example.com');
      const auth = { authorization: `Bearer ${accessToken}` };
      const key = (await (await fetch(`${accounts}/users/me/client-keys`, { method: 'POST', headers: auth })).json()) as { clientId: string };
      expect((await fetch(`${accounts}/users/me/client-keys/${key.clientId}`, { method: 'DELETE', headers: auth })).status).toBe(204);

      const deadline = Date.now() + 5000;
      while (revoked.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(revoked).toEqual([{ kind: 'revocation.client-key-deleted', payload: { userId, clientId: key.clientId } }]);
    } finally {
      await platform.stop();
    }
  });

  it('walks from sign-up to a running eth node, calls it through the proxy over HTTPS and deletes it, as the README does with curl', async () => {
    const platform = await startPlatform({ ...env, LOCAL_BLOCK_INTERVAL_SECONDS: '1' });
    try {
      const { accounts, nodes } = platform.urls as { accounts: string; nodes: string };
      const client = await clientHeaders(accounts, 'nodes@example.com');

      const created = await fetch(`${nodes}/users/me/nodes`, { method: 'POST', headers: client, body: JSON.stringify({ image: 'eth' }) });
      expect(created.status).toBe(200);
      const node = (await created.json()) as { id: string; state: string; address: string; nodeUser: string; nodePass: string };
      expect(node).toMatchObject({ state: 'provisioning', address: `${node.id}.nodes.localhost` });

      const state = await pollUntil(
        async () => ((await (await fetch(`${nodes}/users/me/nodes/${node.id}`, { headers: client })).json()) as { state: string }).state,
        (value) => value === 'running',
      );
      expect(state).toBe('running');

      // Through the proxy, as `curl --cacert .data/tls/proxy-cert.pem https://<address>:8545/` does.
      const call = (method: string) =>
        proxyCall(platform.proxy, node.address, platform.proxy.ports.eth, `${node.nodeUser}:${node.nodePass}`, { jsonrpc: '2.0', id: 1, method, params: [] });
      const height = await call('eth_blockNumber');
      expect(height).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) } });
      // eth_coinbase is refused on every node, dev chains too (the dev layer funds and mines, no more).
      expect(await call('eth_coinbase')).toEqual({
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32601,
            message: 'method "eth_coinbase" is not allowed on this hosted node',
            data: { refusedBy: 'platform', method: 'eth_coinbase', message: 'the method "eth_coinbase" does not exist/is not available on this hosted node' },
          },
        },
      });

      expect((await fetch(`${nodes}/users/me/nodes/${node.id}`, { method: 'DELETE', headers: client })).status).toBe(200);
      const gone = await pollUntil(
        async () => (await fetch(`${nodes}/users/me/nodes/${node.id}`, { headers: client })).status,
        (status) => status === 404,
      );
      expect(gone).toBe(404);
    } finally {
      await platform.stop();
    }
  });

  it('creates a Fuji validator with its NodeID at once, and reaches its node through the proxy, as the README does with curl', async () => {
    const platform = await startPlatform(env);
    try {
      const { accounts, staking } = platform.urls as { accounts: string; staking: string };
      const client = await clientHeaders(accounts, 'staking@example.com');

      const created = await fetch(`${staking}/staking/avalanche/fuji/validators`, { method: 'POST', headers: client });
      expect(created.status).toBe(200);
      const validator = (await created.json()) as { nodeId: string; chainNodeId: string; address: string; nodeUser: string; nodePass: string };
      expect(validator).toMatchObject({
        nodeId: expect.stringMatching(/^node-[0-9a-f-]{36}$/),
        chainNodeId: expect.stringMatching(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/),
      });
      const credentials = `${validator.nodeUser}:${validator.nodePass}`;

      const fetched = await pollUntil(
        async () =>
          (await (await fetch(`${staking}/staking/avalanche/fuji/validators/${validator.nodeId}`, { headers: client })).json()) as {
            state: string;
            registration: { status: string };
          },
        (value) => value.state === 'running',
      );
      expect(fetched).toMatchObject({ state: 'running', chainNodeId: validator.chainNodeId, registration: { status: 'unregistered' } });

      // The node says the NodeID the staking service computed from its certificate.
      const management = platform.proxy.ports.management;
      expect(await proxyCall(platform.proxy, validator.address, management, credentials, undefined, '/status')).toEqual({ status: 200, body: 'healthy' });
      const logs = await proxyCall(platform.proxy, validator.address, management, credentials, undefined, '/logs?lines=2');
      expect(logs).toMatchObject({ status: 200, body: [expect.any(String), expect.any(String)] });
      const info = await proxyCall(
        platform.proxy,
        validator.address,
        platform.proxy.ports.avalanche,
        credentials,
        { jsonrpc: '2.0', id: 1, method: 'info.getNodeID', params: {} },
        '/ext/info',
      );
      expect(info).toMatchObject({ status: 200, body: { result: { nodeID: validator.chainNodeId } } });

      // Never registered: it may go.
      expect((await fetch(`${staking}/staking/avalanche/fuji/validators/${validator.nodeId}`, { method: 'DELETE', headers: client })).status).toBe(200);
    } finally {
      await platform.stop();
    }
  });

  it('refuses to start on a bad variable, naming it', async () => {
    await expect(startPlatform({ DATA_DIR: dataDir, ACCOUNTS_PORT: 'x' })).rejects.toThrow(ConfigError);
    await expect(startPlatform({ DATA_DIR: dataDir, ACCOUNTS_PORT: 'x' })).rejects.toThrow('ACCOUNTS_PORT');
  });
});
