import { once } from 'node:events';
import { Agent } from 'node:https';
import { connect } from 'node:net';
import { FetchRequest, JsonRpcProvider, Wallet, WebSocketProvider } from 'ethers';
import { clientTokens, HOUR } from '@cloud/accounts/testing';
import type { NodeProxy } from '../../src';
import { basic, callProxy } from '../client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';
import { lookup, openSocket, refusal, socketTo, type Message } from '../websocket-client';

const refusedMessage = (method: string) => `method "${method}" is not allowed on this hosted node`;
const refusedError = (method: string) => ({
  code: -32601,
  message: refusedMessage(method),
  data: { refusedBy: 'platform', method, message: `the method "${method}" does not exist/is not available on this hosted node` },
});
const call = (id: unknown, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });

describe('the proxy in front of an Ethereum (anvil) node', () => {
  let platform: ProxyPlatform;
  let secure: NodeProxy;
  let plain: NodeProxy;
  let user: TestUser;
  let node: CreatedNode;
  let credentials: string;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    const limits = { PROXY_RATE_PER_SECOND: '100000', PROXY_RATE_BURST: '100000' };
    [secure, plain] = await Promise.all([platform.startProxy({ ...limits, PROXY_TLS: 'on' }), platform.startProxy({ ...limits, PROXY_TLS: 'off' })]);
    user = await platform.user();
    node = await platform.createNode(user, { image: 'eth' });
    credentials = basic(`${node.nodeUser}:${node.nodePass}`);
  }, 120_000);
  afterAll(() => platform?.close());

  const rpc = (body: unknown, auth = credentials, address = node.address) => callProxy(plain, 'eth', { host: address, auth, body });

  it('serves ethers’ JsonRpcProvider over HTTPS, and refuses the methods that use node keys or control the dev chain', async () => {
    const request = new FetchRequest(`https://${node.address}:${secure.ports.eth}/`);
    request.setCredentials(node.nodeUser!, node.nodePass!);
    request.getUrlFunc = FetchRequest.createGetUrlFunc({ agent: new Agent({ ca: secure.certificate, lookup }) });
    const provider = new JsonRpcProvider(request, undefined, { staticNetwork: true });
    try {
      expect((await provider.getNetwork()).chainId).toBe(31337n);
      expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
      expect(await provider.send('eth_blockNumber', [])).toMatch(/^0x(0|[1-9a-f][0-9a-f]*)$/);
      const stranger = Wallet.createRandom().address;
      // The node runs a dev chain: the dev layer (eth_accounts, anvil_setBalance, evm_mine, ...) passes
      // there (test/on-one-platform/dev-layer.ts); these are refused on every node.
      const refused: [string, unknown[]][] = [
        ['eth_coinbase', []],
        ['eth_sendTransactionSync', [{ from: stranger, to: stranger, value: '0x1' }]],
        ['personal_unlockAccount', [stranger, 'password', 60]],
        ['tenderly_setBalance', [stranger, '0x3635c9adc5dea00000']],
        ['hardhat_mine', []],
        ['HARDHAT_MINE', []],
      ];
      for (const [method, params] of refused) {
        await expect(provider.send(method, params)).rejects.toMatchObject({
          code: 'UNSUPPORTED_OPERATION',
          operation: method,
          info: { error: refusedError(method) },
        });
      }
      // What was refused never reached the node: the balance tenderly_setBalance would have set is not there.
      expect(await provider.getBalance(stranger)).toBe(0n);
    } finally {
      provider.destroy();
    }
  });

  it('serves ethers’ WebSocketProvider over WSS: new blocks arrive, and calls are answered', async () => {
    const provider = new WebSocketProvider(socketTo(secure, node.address, credentials), undefined, { staticNetwork: true });
    try {
      const block = new Promise<number>((resolve) => void provider.on('block', resolve));
      expect(await block).toBeGreaterThan(0);
      expect(await provider.send('eth_chainId', [])).toBe('0x7a69');
      await expect(provider.send('eth_coinbase', [])).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION', info: { error: { code: -32601 } } });
    } finally {
      await provider.destroy();
    }
  });

  it('answers refused calls over a WebSocket itself, merges a batch in order, and passes eth_subscribe notifications', async () => {
    const { ws, box } = await openSocket(plain, node.address, credentials);
    const stranger = Wallet.createRandom().address;
    ws.send(JSON.stringify(call(5, 'eth_coinbase')));
    expect(await box.next('the refusal', (m) => !Array.isArray(m) && m.id === 5)).toEqual({ jsonrpc: '2.0', id: 5, error: refusedError('eth_coinbase') });

    ws.send(
      JSON.stringify([call('a', 'eth_chainId'), call('b', 'tenderly_setBalance', [stranger, '0x1000']), call('c', 'eth_getBalance', [stranger, 'latest'])]),
    );
    const batch = await box.next<Message[]>('the batch answer', (m) => Array.isArray(m));
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x7a69' },
      { jsonrpc: '2.0', id: 'b', error: refusedError('tenderly_setBalance') },
      { jsonrpc: '2.0', id: 'c', result: '0x0' },
    ]);
    // A notification (no id) is forwarded but never answered: the refusals still come, in place.
    const notification = { jsonrpc: '2.0', method: 'eth_chainId', params: [] };
    ws.send(JSON.stringify([notification, call('d', 'eth_coinbase'), call('e', 'eth_chainId')]));
    expect(await box.next('the answer with a notification', (m) => Array.isArray(m) && m[0]?.id === 'd')).toEqual([
      { jsonrpc: '2.0', id: 'd', error: refusedError('eth_coinbase') },
      { jsonrpc: '2.0', id: 'e', result: '0x7a69' },
    ]);
    ws.send(JSON.stringify([notification, call('f', 'personal_unlockAccount')]));
    expect(await box.next('the answer to refusals and notifications only', (m) => Array.isArray(m) && m[0]?.id === 'f')).toMatchObject([
      { id: 'f', error: { code: -32601 } },
    ]);

    ws.send(JSON.stringify(call(9, 'eth_subscribe', ['newHeads'])));
    const subscription = (await box.next<Message>('the subscription', (m) => !Array.isArray(m) && m.id === 9)).result;
    expect(subscription).toMatch(/^0x[0-9a-f]+$/);
    const head = await box.next<Message>(
      'a newHeads notification',
      (m) => !Array.isArray(m) && m.method === 'eth_subscription' && m.params?.subscription === subscription,
    );
    expect(head.params?.result?.number).toMatch(/^0x[0-9a-f]+$/);
    expect(box.messages.filter((m) => Array.isArray(m))).toHaveLength(3);
    ws.close();
    await once(ws, 'close');
    await waitUntil('the bridge to forget the socket', async () => (await plain.context.metrics.webSockets.get()).values[0]?.value === 0);
  });

  it('refuses an upgrade without the node’s credentials (401), on another chain’s port, for another chain’s node or an unknown node (404)', async () => {
    for (const authorization of [undefined, basic(`${node.nodeUser}:wrong`), `Bearer ${user.clientToken}`]) {
      const refused = await refusal(socketTo(plain, node.address, authorization));
      expect([authorization, refused.status, refused.headers['www-authenticate']]).toEqual([authorization, 401, 'Basic realm="node", charset="UTF-8"']);
      expect(refused.body).toMatchObject({ code: 'Unauthorized' });
    }
    expect(await refusal(socketTo(plain, node.address, credentials, plain.ports.btc))).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    expect(await refusal(socketTo(plain, node.address, credentials, plain.ports.eth, '/other'))).toMatchObject({
      status: 404,
      body: { message: 'the WebSocket is served at /' },
    });
    const litecoin = await platform.createNode(user, { image: 'ltc' }, false);
    const other = await refusal(socketTo(plain, litecoin.address, basic(`${litecoin.nodeUser}:${litecoin.nodePass}`)));
    expect(other).toMatchObject({
      status: 404,
      body: { code: 'NotFound', message: expect.stringContaining(`node ${litecoin.id} is not served on this port`) },
    });
    expect(await refusal(socketTo(plain, 'node-00000000-0000-0000-0000-000000000000.nodes.localhost', credentials))).toMatchObject({ status: 404 });
  });

  it('survives callers that reset the connection while their upgrade is refused', async () => {
    for (let i = 0; i < 20; i++) {
      const socket = connect(plain.ports.eth, '127.0.0.1');
      await once(socket, 'connect');
      const headers = [
        `Host: ${node.address}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      ];
      socket.write(`GET / HTTP/1.1\r\n${headers.join('\r\n')}\r\nAuthorization: ${basic(`${node.nodeUser}:wrong`)}\r\n\r\n`);
      socket.resetAndDestroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await rpc(call(1, 'eth_chainId'))).toMatchObject({ status: 200, body: { result: '0x7a69' } });
  });

  it('answers every call of a batch over the node’s rate with -32005, in JSON-RPC 2.0', async () => {
    // The rate limiter runs on the platform's fake clock: no token comes back during the test.
    const limited = await platform.startProxy({ PROXY_RATE_PER_SECOND: '1', PROXY_RATE_BURST: '2' });
    const { ws, box } = await openSocket(limited, node.address, credentials); // the upgrade takes one token
    ws.send(JSON.stringify(call(1, 'eth_chainId')));
    expect(await box.next('an answer', (m) => !Array.isArray(m) && m.id === 1)).toMatchObject({ result: '0x7a69' });
    ws.send(JSON.stringify([call(2, 'eth_chainId'), call(3, 'eth_blockNumber')]));
    const error = { code: -32005, message: "over this node's rate of 1 calls per second" };
    expect(await box.next('the rate refusal', (m) => Array.isArray(m))).toEqual([
      { jsonrpc: '2.0', id: 2, error },
      { jsonrpc: '2.0', id: 3, error },
    ]);
    ws.close();
  });

  it('closes open WebSockets when the node’s credentials rotate (1008) and when it is deleted (1001), and answers 404 after', async () => {
    const doomed = await platform.createNode(user, { image: 'eth' });
    const old = await openSocket(plain, doomed.address, basic(`${doomed.nodeUser}:${doomed.nodePass}`));
    old.ws.send(JSON.stringify(call(1, 'eth_chainId')));
    expect(await old.box.next('an answer', (m) => !Array.isArray(m) && m.id === 1)).toMatchObject({ result: '0x7a69' });
    const rotated = await platform.rotateCredentials(user, doomed.id);
    const auth = basic(`${rotated.nodeUser}:${rotated.nodePass}`);
    let started = Date.now();
    expect(await old.closed).toBe(1008);
    expect(Date.now() - started).toBeLessThan(2_000);

    const { ws, box, closed } = await openSocket(plain, doomed.address, auth);
    ws.send(JSON.stringify(call(2, 'eth_chainId')));
    expect(await box.next('an answer', (m) => !Array.isArray(m) && m.id === 2)).toMatchObject({ result: '0x7a69' });
    await platform.nodes.http.delete(`/users/me/nodes/${doomed.id}`).set('authorization', `Bearer ${user.clientToken}`).expect(200);
    started = Date.now();
    expect(await closed).toBe(1001);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await rpc(call(3, 'eth_chainId'), auth, doomed.address)).toMatchObject({ status: 404, body: { code: 'NotFound' } });
  });

  describe('a jwt node', () => {
    let jwtNode: CreatedNode;
    beforeAll(async () => {
      jwtNode = await platform.createNode(user, { image: 'eth', jwt: true });
    }, 120_000);

    const chainId = (auth: string) => rpc(call(1, 'eth_chainId'), auth, jwtNode.address);
    const expectRefused = (answer: Awaited<ReturnType<typeof chainId>>) =>
      expect(answer).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer realm="node"' }, body: { code: 'Unauthorized' } });

    it('takes its owner’s client token, and refuses another user’s, the owner’s account token and Basic credentials', async () => {
      expect(jwtNode.nodeUser).toBeUndefined();
      expect(await chainId(`Bearer ${user.clientToken}`)).toMatchObject({ status: 200, body: { id: 1, result: '0x7a69' } });
      const stranger = await platform.user();
      expectRefused(await chainId(`Bearer ${stranger.clientToken}`));
      expectRefused(await chainId(`Bearer ${user.accountToken}`));
      expectRefused(await chainId(credentials));
      const { ws, box } = await openSocket(plain, jwtNode.address, `Bearer ${user.clientToken}`);
      ws.send(JSON.stringify(call(3, 'eth_chainId')));
      expect(await box.next('an answer', (m) => !Array.isArray(m) && m.id === 3)).toMatchObject({ result: '0x7a69' });
      ws.close();
      expect((await refusal(socketTo(plain, jwtNode.address, `Bearer ${stranger.clientToken}`))).status).toBe(401);
    });

    it('refuses a token once its client key is deleted, over HTTP, and closes a WebSocket opened with it within a second', async () => {
      const key = await clientTokens(platform.accounts, user.accountToken);
      expect(await chainId(`Bearer ${key.accessToken}`)).toMatchObject({ status: 200 });
      const open = await openSocket(plain, jwtNode.address, `Bearer ${key.accessToken}`);
      await platform.accounts.http.delete(`/users/me/client-keys/${key.clientId}`).set('authorization', `Bearer ${user.accountToken}`).expect(204);
      const took = await waitUntil('the revocation to reach the proxy', async () => (await chainId(`Bearer ${key.accessToken}`)).status === 401, 5_000, 20);
      expect(took).toBeLessThan(2_000);
      expectRefused(await chainId(`Bearer ${key.accessToken}`));
      expect(await chainId(`Bearer ${user.clientToken}`)).toMatchObject({ status: 200 });
      // Closed though idle: it sends nothing, and would otherwise go on receiving notifications.
      const closing = Date.now();
      expect(await open.closed).toBe(1008);
      expect(Date.now() - closing).toBeLessThan(2_000);
      expect(open.box.messages).toEqual([]);
    });

    // Last: moving the shared clock expires every client token of the platform.
    it('refuses a token once it expires, though it was verified (and cached) before, over HTTP, and closes its idle WebSocket', async () => {
      expect(await chainId(`Bearer ${user.clientToken}`)).toMatchObject({ status: 200 });
      const open = await openSocket(plain, jwtNode.address, `Bearer ${user.clientToken}`);
      platform.clock.advance(HOUR + 1_000);
      expectRefused(await chainId(`Bearer ${user.clientToken}`));
      // Closed within the second, though idle.
      expect(await open.closed).toBe(1008);
      expect(open.box.messages).toEqual([]);
    });
  });
});
