import type { AnyBusMessage } from '@cloud/bus';
import { callProxy } from './client';
import { openSocket } from './websocket-client';
import { startProxyPlatform, waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from './harness';

type Report = {
  credentials: { credentialId: string; name: string | null; calls: Record<string, number>; total: number }[];
  methods: { method: string; calls: Record<string, number>; total: number }[];
  totals: { calls: Record<string, number>; total: number; bytesIn: number; bytesOut: number };
};

// Calls through real proxy replicas to a real anvil node, stored by the nodes service and read
// from its usage API: per method and outcome, across a replica's restart, and once however often
// a message comes, on both buses.
describe.each([
  ['in-process', false],
  ['RabbitMQ', true],
])('usage of a node through the proxy, over the %s bus', (_name, rabbitmq) => {
  let platform: ProxyPlatform;
  let user: TestUser;
  let node: CreatedNode;
  const published: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startProxyPlatform({ rabbitmq });
    await platform.bus.subscribe({ name: 'usage-copies', bindings: ['node.usage'], handle: async (messages) => void published.push(...messages) });
    user = await platform.user();
  }, 120_000);
  afterAll(() => platform?.close());

  const usage = async () =>
    (await platform.nodes.http.get(`/users/me/nodes/${node.id}/usage`).set('authorization', `Bearer ${user.clientToken}`).expect(200)).body as Report;

  it('counts calls per method and outcome, once, across a proxy restart', async () => {
    // The fake clock stands still, so the rate's burst is all a replica gets: 6 calls.
    const env = { PROXY_RATE_PER_SECOND: '1', PROXY_RATE_BURST: '6', PROXY_USAGE_INTERVAL_MS: '3600000' };
    const first = await platform.startProxy(env);
    node = await platform.createNode(user, { image: 'eth' });
    const call = (proxy: typeof first, body: unknown, auth = `${node.nodeUser}:${node.nodePass}`) =>
      callProxy(proxy, 'eth', { host: node.address, auth, body });
    const rpc = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params });

    expect((await call(first, rpc('eth_blockNumber'))).body).toMatchObject({ result: expect.stringMatching(/^0x/) });
    // The proxy lets any casing through as the lists' name; anvil knows only its own: a node error, counted under the name.
    expect((await call(first, rpc('ETH_BLOCKNUMBER'))).body).toMatchObject({ error: { message: 'Method not found' } });
    expect((await call(first, rpc('eth_getBalance', ['not-an-address', 'latest']))).body).toMatchObject({ error: expect.any(Object) });
    expect((await call(first, rpc('personal_unlockAccount', ['0x00', '0x00']))).body).toMatchObject({ error: { code: -32601 } });
    expect((await call(first, rpc('eth_blockNumber'), `${node.nodeUser}:wrong`)).status).toBe(401);
    // A batch: one allowed call and one nobody offers.
    const batch = await call(first, [rpc('eth_chainId'), { ...rpc('foo_bar'), id: 2 }]);
    expect(batch.body).toEqual([
      expect.objectContaining({ result: expect.any(String) }),
      expect.objectContaining({ error: expect.objectContaining({ code: -32601 }) }),
    ]);
    await first.close();

    // A new replica (its own burst of 6): 6 more calls pass, then 2 are over the rate.
    const second = await platform.startProxy(env);
    for (let index = 0; index < 6; index += 1) expect((await call(second, rpc('eth_chainId'))).status).toBe(200);
    for (let index = 0; index < 2; index += 1) expect((await call(second, rpc('eth_chainId'))).status).toBe(429);
    await second.context.usage.flush();
    // Flushing again publishes nothing new: nothing was counted since.
    await second.context.usage.flush();

    await waitUntil('the usage to be stored', async () => (await usage()).totals.total >= 15, 20_000, 100);
    const report = await usage();
    const calls = (ok: number, nodeError: number, refused: number, rateLimited: number, unauthorized: number) => ({
      ok,
      node_error: nodeError,
      refused,
      rate_limited: rateLimited,
      unauthorized,
    });
    expect(report.methods).toEqual(
      [
        { method: 'eth_chainid', calls: calls(7, 0, 0, 0, 0), total: 7 },
        // Refused calls by the name the lists know them by (a refused prefix for personal_unlockAccount); foo_bar, which no list has, under other.
        { method: 'personal_*', calls: calls(0, 0, 1, 0, 0), total: 1 },
        { method: 'other', calls: calls(0, 0, 1, 0, 0), total: 1 },
        { method: 'unread', calls: calls(0, 0, 0, 2, 1), total: 3 },
        { method: 'eth_blocknumber', calls: calls(1, 1, 0, 0, 0), total: 2 },
        { method: 'eth_getbalance', calls: calls(0, 1, 0, 0, 0), total: 1 },
      ].sort((a, b) => b.total - a.total || a.method.localeCompare(b.method)),
    );
    expect(report.totals.calls).toEqual(calls(8, 2, 2, 2, 1));
    expect(report.totals.bytesIn).toBeGreaterThan(0);
    expect(report.totals.bytesOut).toBeGreaterThan(0);
    // Stored once per message: one per replica, each counted once.
    expect(Number((await platform.nodes.service.db('usage_messages').count({ n: '*' }))[0]!.n)).toBe(2);

    // The replicas' own messages sent again (a redelivery, a replay) change nothing; a new one is added.
    await waitUntil('copies of both messages', () => published.length === 2, 10_000);
    await platform.bus.publish(published);
    await platform.bus.publish(published);
    const third = await platform.startProxy(env);
    expect((await call(third, rpc('eth_chainId'))).status).toBe(200);
    // Over WebSocket too: a forwarded call counts ok, a refused one by its name (foo_bar: no list has it, so other).
    const socket = await openSocket(third, node.address, `Basic ${Buffer.from(`${node.nodeUser}:${node.nodePass}`).toString('base64')}`);
    socket.ws.send(JSON.stringify({ ...rpc('eth_blockNumber'), id: 'ws-1' }));
    socket.ws.send(JSON.stringify({ ...rpc('foo_bar'), id: 'ws-2' }));
    await socket.box.next('both answers', () => socket.box.messages.length === 2);
    socket.ws.close();
    await third.context.usage.flush();
    await waitUntil("the third replica's calls to be stored", async () => (await usage()).totals.total === 18, 20_000, 100);
    expect((await usage()).totals.calls).toEqual(calls(10, 2, 3, 2, 1));
    expect((await usage()).methods.find((each) => each.method === 'eth_blocknumber')).toEqual({
      method: 'eth_blocknumber',
      calls: calls(2, 1, 0, 0, 0),
      total: 3,
    });
    expect(Number((await platform.nodes.service.db('usage_messages').count({ n: '*' }))[0]!.n)).toBe(3);
  });
  it('counts WebSocket calls by what the node answered, access refusals, and the calls of each credential', async () => {
    const proxy = await platform.startProxy({ PROXY_USAGE_INTERVAL_MS: '3600000' });
    node = await platform.createNode(user, { image: 'eth' });
    const nodeApi = (method: 'get' | 'post' | 'put', path: string) =>
      platform.nodes.http[method](`/users/me/nodes/${node.id}${path}`).set('authorization', `Bearer ${user.clientToken}`);
    const ci = (await nodeApi('post', '/credentials').send({ name: 'ci' }).expect(200)).body as { id: string; nodeUser: string; nodePass: string };
    const [first] = (await nodeApi('get', '/credentials').expect(200)).body as { id: string; name: string }[];
    await waitUntil('the proxy to take the new credential', () => (proxy.context.table.get(node.id)?.credentials?.length ?? 0) === 2, 5_000, 10);
    const rpc = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
    const badBalance = (id: unknown) => rpc('eth_getBalance', ['not-an-address', 'latest'], id);

    // Over HTTP with the first credential: one ok.
    expect((await callProxy(proxy, 'eth', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, body: rpc('eth_blockNumber') })).status).toBe(200);
    // Over a WebSocket with the ci credential: answers matched to calls by id, errors counted as the node's.
    const socket = await openSocket(proxy, node.address, `Basic ${Buffer.from(`${ci.nodeUser}:${ci.nodePass}`).toString('base64')}`);
    socket.ws.send(JSON.stringify(rpc('eth_blockNumber', [], 'ws-1')));
    socket.ws.send(JSON.stringify(badBalance('ws-2')));
    socket.ws.send(JSON.stringify([rpc('eth_chainId', [], 'ws-3'), badBalance('ws-4')]));
    await socket.box.next('three answers', () => socket.box.messages.length === 3);
    // The node answers in its own order.
    expect(socket.box.messages).toContainEqual(expect.objectContaining({ id: 'ws-2', error: expect.any(Object) }));
    socket.ws.close();

    // The owner allows one network only: this caller's calls are refused (403) before credentials are read.
    await nodeApi('put', '/access')
      .send({ ipAllowlist: ['10.0.0.0/8'] })
      .expect(200);
    await waitUntil('the proxy to apply the rule', () => (proxy.context.table.get(node.id)?.access?.ipAllowlist.length ?? 0) === 1, 5_000, 10);
    const refused = await callProxy(proxy, 'eth', { host: node.address, auth: `${ci.nodeUser}:${ci.nodePass}`, body: rpc('eth_blockNumber') });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'Forbidden' });

    await proxy.context.usage.flush();
    await waitUntil('the usage to be stored', async () => (await usage()).totals.total >= 6, 20_000, 100);
    const report = await usage();
    const calls = (ok: number, nodeError: number, refusedCalls = 0) => ({ ok, node_error: nodeError, refused: refusedCalls, rate_limited: 0, unauthorized: 0 });
    expect(report.methods).toEqual([
      { method: 'eth_blocknumber', calls: calls(2, 0), total: 2 },
      { method: 'eth_getbalance', calls: calls(0, 2), total: 2 },
      { method: 'eth_chainid', calls: calls(1, 0), total: 1 },
      { method: 'unread', calls: calls(0, 0, 1), total: 1 },
    ]);
    expect(report.credentials).toEqual([
      { credentialId: ci.id, name: 'ci', kind: 'basic', calls: calls(2, 2), total: 4 },
      { credentialId: first!.id, name: first!.name, kind: 'basic', calls: calls(1, 0), total: 1 },
    ]);
    await proxy.close();
  });
});
