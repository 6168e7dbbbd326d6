import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import type { NodeProxy } from '../../src';
import { callProxy } from '../client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

interface NewToken {
  id: string;
  token: string;
  urls: { jsonRpc: string; rest?: string; webSocket?: string };
}

/**
 * URL tokens and the addresses every client resolves (issue 27): a node reached at
 * `https://127.0.0.1:<port>/<token>` with no Host name or header, the token taken off before
 * the node sees the call, refused within a second once rotated; and plain HTTP from loopback on
 * the same TLS port, for clients that cannot speak TLS.
 */
describe('URL tokens and loopback addresses, against litecoind and anvil through the proxy', () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;
  let ltc: CreatedNode;
  let eth: CreatedNode;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    proxy = await platform.startProxy({ PROXY_TLS: 'on' });
    user = await platform.user();
    [ltc, eth] = await Promise.all([platform.createNode(user, { image: 'ltc' }), platform.createNode(user, { image: 'eth' })]);
  }, 120_000);
  afterAll(() => platform?.close());

  const credentials = (node: CreatedNode) => `/users/me/nodes/${node.id}/credentials`;
  async function newToken(node: CreatedNode, name: string): Promise<NewToken> {
    const created = await platform.nodes.http
      .post(credentials(node))
      .set('authorization', `Bearer ${user.clientToken}`)
      .send({ name, kind: 'token' })
      .expect(200);
    const token = created.body as NewToken;
    await waitUntil('the proxy to take the token', () => tokenKnown(node, token), 5_000);
    return token;
  }
  const tokenKnown = (node: CreatedNode, token: NewToken) => [...(proxy.context.table.get(node.id)?.urlTokens.values() ?? [])].includes(token.id);
  const byToken = (listener: 'ltc' | 'eth', token: string, body: unknown, path = '') =>
    callProxy(proxy, listener, { host: '127.0.0.1', path: `/${token}${path}`, body });

  it('routes a call by the URL token alone, on 127.0.0.1, and takes the token off before the node sees it', async () => {
    const token = await newToken(ltc, 'app');
    expect(token.token).toMatch(/^nt_[A-Za-z0-9_-]{43}$/);
    // This platform's records print the contract's ports (its proxies listen where the system put them).
    expect(token.urls).toMatchObject({ jsonRpc: `https://127.0.0.1:9332/${token.token}`, rest: `https://127.0.0.1:9332/${token.token}/rest/` });
    // litecoind serves JSON-RPC at / and REST under /rest/ only: an answer means the token is gone from the path.
    expect(await byToken('ltc', token.token, { id: 1, method: 'getblockcount' })).toMatchObject({ status: 200, body: { result: expect.any(Number) } });
    expect(await byToken('ltc', token.token, { id: 1, method: 'getblockcount' }, '/')).toMatchObject({ status: 200, body: { result: expect.any(Number) } });
    const rest = await byToken('ltc', token.token, undefined, '/rest/chaininfo.json');
    expect(rest).toMatchObject({ status: 200, body: { chain: 'regtest' } });
    // The token is a credential for its node only: another node's port or name does not take it.
    expect(await byToken('eth', token.token, { id: 1, method: 'eth_blockNumber' })).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    const named = await callProxy(proxy, 'eth', { host: eth.address, path: `/${token.token}`, body: { id: 1, method: 'eth_blockNumber' } });
    expect(named).toMatchObject({ status: 401, body: { code: 'Unauthorized' } });
    expect(named.text).not.toContain(token.token);
  });

  it('refuses an unknown token with 401 that never repeats it, and a rotated one within a second', async () => {
    const token = await newToken(ltc, 'rotating');
    const unknown = `nt_${'A'.repeat(43)}`;
    const answer = await byToken('ltc', unknown, { id: 1, method: 'getblockcount' });
    expect(answer).toMatchObject({ status: 401, body: { code: 'Unauthorized' }, headers: { 'www-authenticate': expect.stringMatching(/^Basic /) } });
    expect(answer.text).not.toContain(unknown);
    const rotated = await platform.nodes.http
      .post(`${credentials(ltc)}/${token.id}/rotate`)
      .set('authorization', `Bearer ${user.clientToken}`)
      .expect(200);
    const fresh = rotated.body as NewToken;
    expect(fresh).toMatchObject({ id: token.id });
    expect(fresh.token).not.toBe(token.token);
    const took = await waitUntil(
      'the old token to stop working',
      async () => (await byToken('ltc', token.token, { id: 1, method: 'getblockcount' })).status === 401,
      1000,
    );
    expect(took).toBeLessThan(1000);
    expect(await byToken('ltc', fresh.token, { id: 1, method: 'getblockcount' })).toMatchObject({ status: 200 });
  });

  it('serves the eth WebSocket at wss://127.0.0.1:<port>/<token>, and closes it once the token is deleted', async () => {
    const token = await newToken(eth, 'socket');
    expect(token.urls.webSocket).toBe(`wss://127.0.0.1:8545/${token.token}`);
    const ws = new WebSocket(`wss://127.0.0.1:${proxy.ports.eth}/${token.token}`, { ca: proxy.certificate });
    await once(ws, 'open');
    const answer = once(ws, 'message');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }));
    expect(JSON.parse(String((await answer)[0]))).toMatchObject({ id: 1, result: expect.stringMatching(/^0x/) });
    const closed = once(ws, 'close');
    await platform.nodes.http
      .delete(`${credentials(eth)}/${token.id}`)
      .set('authorization', `Bearer ${user.clientToken}`)
      .expect(200);
    const [code] = (await closed) as [number];
    expect(code).toBe(1008);
  });

  it('answers 401 without credentials on an address that names no node, asking for them', async () => {
    const answer = await callProxy(proxy, 'ltc', { host: '127.0.0.1', body: { id: 1, method: 'getblockcount' } });
    expect(answer).toMatchObject({ status: 401, body: { code: 'Unauthorized' }, headers: { 'www-authenticate': expect.stringMatching(/^Basic /) } });
  });

  it('answers plain HTTP from loopback on the TLS port, with Basic credentials routed by the user name', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ id: 1, method: 'getblockcount', params: [] });
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: proxy.ports.ltc,
          method: 'POST',
          path: '/',
          auth: `${ltc.nodeUser}:${ltc.nodePass}`,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ result: expect.any(Number) });
    // The same port still speaks TLS, to a client verifying 127.0.0.1 against the dev certificate.
    expect(
      await callProxy(proxy, 'ltc', { host: '127.0.0.1', auth: `${ltc.nodeUser}:${ltc.nodePass}`, body: { id: 1, method: 'getblockcount' } }),
    ).toMatchObject({ status: 200 });
  });
});
