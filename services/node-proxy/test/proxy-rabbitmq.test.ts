import { BrokerLink, TEST_AMQP_URL } from '@cloud/bus/testing';
import type { NodeProxy } from '../src';
import { callProxy } from './client';
import { startProxyPlatform, waitUntil, type ProxyPlatform } from './harness';

describe('node-proxy replicas over RabbitMQ', () => {
  let platform: ProxyPlatform;
  beforeAll(async () => {
    platform = await startProxyPlatform({ rabbitmq: true });
  }, 180_000);
  afterAll(() => platform?.close());

  it('load the routing table at start and follow every change, each replica on its own', async () => {
    const user = await platform.user();
    const node = await platform.createNode(user, { image: 'ltc' });
    // Both replicas start after the node runs: only the snapshot can tell them about it.
    const replicas: NodeProxy[] = [await platform.startProxy(), await platform.startProxy()];
    expect(replicas.map((proxy) => proxy.context.bus.transport)).toEqual(['rabbitmq', 'rabbitmq']);
    const call = (proxy: NodeProxy, credentials: string) =>
      callProxy(proxy, 'ltc', { host: node.address, auth: credentials, body: { id: 1, method: 'getblockcount', params: [] } });
    const old = `${node.nodeUser}:${node.nodePass}`;
    for (const proxy of replicas) expect(await call(proxy, old)).toMatchObject({ status: 200, body: { result: expect.any(Number), error: null } });

    const rotated = await platform.rotateCredentials(user, node.id);
    const fresh = `${rotated.nodeUser}:${rotated.nodePass}`;
    for (const proxy of replicas) {
      await waitUntil('the rotation to reach the replica', async () => (await call(proxy, old)).status === 401, 2000);
      expect(await call(proxy, fresh)).toMatchObject({ status: 200 });
    }

    // The owner's access rules travel the same way: an allowlist without loopback shuts both out.
    await platform.nodes.http
      .put(`/users/me/nodes/${node.id}/access`)
      .set('authorization', `Bearer ${user.clientToken}`)
      .send({ ipAllowlist: ['203.0.113.0/24'] })
      .expect(200);
    const changed = Date.now();
    for (const proxy of replicas) await waitUntil('the rules to reach the replica', async () => (await call(proxy, fresh)).status === 403, 2000, 20);
    expect(Date.now() - changed).toBeLessThan(1000);
    // A replica started now loads them with the routes.
    const late = await platform.startProxy();
    expect(await call(late, fresh)).toMatchObject({ status: 403, body: { code: 'Forbidden' } });
    await platform.nodes.http.put(`/users/me/nodes/${node.id}/access`).set('authorization', `Bearer ${user.clientToken}`).send({}).expect(200);
    for (const proxy of [...replicas, late]) await waitUntil('the rules to be lifted', async () => (await call(proxy, fresh)).status === 200, 2000, 20);

    await platform.nodes.http.delete(`/users/me/nodes/${node.id}`).set('authorization', `Bearer ${user.clientToken}`).expect(200);
    for (const proxy of replicas) await waitUntil('the deletion to reach the replica', async () => (await call(proxy, fresh)).status === 404, 2000);
  }, 180_000);

  it('serves the management log through the nodes service over the bus', async () => {
    const user = await platform.user();
    const node = await platform.createNode(user, { image: 'ltc' });
    const proxy = await platform.startProxy();
    const logs = await callProxy(proxy, 'management', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, path: '/logs?lines=5' });
    expect(logs).toMatchObject({ status: 200, body: expect.arrayContaining([expect.any(String)]) });
    expect((logs.body as string[]).length).toBe(5);
  }, 180_000);

  it('stays ready and forwarding while its broker is away, saying so in /healthz and its dependency gauge', async () => {
    const user = await platform.user();
    const node = await platform.createNode(user, { image: 'ltc' });
    const link = await BrokerLink.open(TEST_AMQP_URL);
    let proxy: NodeProxy | undefined;
    try {
      proxy = await platform.startProxy({ AMQP_URL: link.url });
      const replica = proxy;
      const call = () =>
        callProxy(replica, 'ltc', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, body: { id: 1, method: 'getblockcount', params: [] } });
      const admin = async (path: string) => {
        const response = await fetch(new URL(path, replica.adminUrl));
        return { status: response.status, text: await response.text() };
      };
      const busGauge = async () => /node_proxy_dependency_up\{dependency="message bus"\} (\d)/.exec((await admin('/metrics')).text)?.[1];
      expect(await call()).toMatchObject({ status: 200, body: { result: expect.any(Number), error: null } });
      expect(await busGauge()).toBe('1');

      await link.cut();
      await waitUntil('the proxy sees its broker gone', async () => (await busGauge()) === '0', 10_000, 50);
      for (let i = 0; i < 5; i += 1) expect(await call()).toMatchObject({ status: 200, body: { result: expect.any(Number), error: null } });
      expect(await admin('/readyz')).toEqual({ status: 200, text: JSON.stringify({ status: 'degraded' }) });
      const health = await admin('/healthz');
      expect(health.status).toBe(200);
      expect(JSON.parse(health.text)).toEqual({
        status: 'degraded',
        dependencies: { 'routing table': 'up', 'token revocations': 'up', 'token signing keys': 'up', 'message bus': 'down' },
      });
      expect(await busGauge()).toBe('0');

      await link.restore();
      await waitUntil('the proxy is connected again', async () => (await busGauge()) === '1', 20_000, 50);
      expect(await admin('/readyz')).toEqual({ status: 200, text: JSON.stringify({ status: 'ok' }) });
      expect(await call()).toMatchObject({ status: 200 });
    } finally {
      // Closed while still connected: the platform's close must not wait on a cut broker.
      await link.restore();
      await proxy?.close();
      await link.close();
    }
  }, 180_000);
});
