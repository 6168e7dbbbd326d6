import type { NodeProxy } from '../src';
import { callProxy } from './client';
import { startProxyPlatform, waitUntil, type ProxyPlatform } from './harness';

describe('node-proxy replicas over RabbitMQ', () => {
  let platform: ProxyPlatform;
  beforeAll(async () => {
    platform = await startProxyPlatform({ rabbitmq: true });
  }, 60_000);
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

    const rotated = await platform.nodes.http.post(`/users/me/nodes/${node.id}/credentials`).set('authorization', `Bearer ${user.clientToken}`).expect(200);
    const fresh = `${rotated.body.nodeUser}:${rotated.body.nodePass}`;
    for (const proxy of replicas) {
      await waitUntil('the rotation to reach the replica', async () => (await call(proxy, old)).status === 401, 2000);
      expect(await call(proxy, fresh)).toMatchObject({ status: 200 });
    }

    await platform.nodes.http.delete(`/users/me/nodes/${node.id}`).set('authorization', `Bearer ${user.clientToken}`).expect(200);
    for (const proxy of replicas) await waitUntil('the deletion to reach the replica', async () => (await call(proxy, fresh)).status === 404, 2000);
  }, 90_000);

  it('serves the management log through the nodes service over the bus', async () => {
    const user = await platform.user();
    const node = await platform.createNode(user, { image: 'ltc' });
    const proxy = await platform.startProxy();
    const logs = await callProxy(proxy, 'management', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, path: '/logs?lines=5' });
    expect(logs).toMatchObject({ status: 200, body: expect.arrayContaining([expect.any(String)]) });
    expect((logs.body as string[]).length).toBe(5);
  }, 90_000);
});
