import { bearer, sha256, startTestPlatform, waitUntil, type TestPlatform } from '../src/testing';
import { jsonRpc } from './rpc-client';

// The same flow with the services talking over RabbitMQ (and PostgreSQL when DATABASE_URL is
// set), as separate deployments would: provisioning requests, state changes, call events, and
// the node-proxy's requests (routes and logs).
describe('nodes over RabbitMQ', () => {
  let platform: TestPlatform;
  afterAll(() => platform.close());

  it('provisions, runs and deletes a node, and its calls reach the accounts event list', async () => {
    platform = await startTestPlatform({ rabbitmq: true });
    expect(platform.bus.transport).toBe('rabbitmq');
    // Two instances: whichever takes the request over the bus, one runs the node.
    const a = await platform.startNodes({ NODES_INSTANCE_ID: 'rabbit-a' });
    const b = await platform.startNodes({ NODES_INSTANCE_ID: 'rabbit-b' });
    const user = await platform.user();

    const created = (await a.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'eth' }).expect(200)).body as {
      id: string;
      nodeUser: string;
      nodePass: string;
    };
    await waitUntil(
      'the node runs',
      async () => {
        const node = (await b.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
        return node.state === 'running';
      },
      45_000,
      100,
    );
    const owner = (await a.service.repository.owners()).get(created.id) === 'rabbit-a' ? a : b;
    const status = await owner.service.driver.status(created.id);
    if (status.state !== 'running') throw new Error(`driver says ${status.state}`);
    expect((await jsonRpc(status.endpoint, 'eth_blockNumber')).result).toMatch(/^0x[0-9a-f]+$/);

    // Whichever instance takes a request answers it.
    const routes = await platform.bus.request('nodes.routes', { limit: 10 });
    expect(routes).toEqual({
      routes: [
        {
          nodeId: created.id,
          userId: user.id,
          image: 'eth',
          chain: 'eth',
          dev: true,
          revision: 1,
          state: 'running',
          basic: { user: created.nodeUser, passwordSha256: sha256(created.nodePass) },
          upstream: status.endpoint.url,
          credentials: [{ id: expect.stringMatching(/^cred-/), user: created.nodeUser, passwordSha256: sha256(created.nodePass) }],
        },
      ],
      next: null,
    });
    expect((await platform.bus.request('nodes.logs', { nodeId: created.id, lines: 2 })).lines).toHaveLength(2);
    await expect(platform.bus.request('nodes.logs', { nodeId: 'node-unknown' })).rejects.toThrow('no node node-unknown');

    await b.http.delete(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil(
      'the node is gone',
      async () => (await a.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken))).status === 404,
      30_000,
      100,
    );
    expect(await owner.service.driver.status(created.id)).toEqual({ state: 'absent' });

    await waitUntil(
      'the calls are in the event list',
      async () => {
        const events = (await platform.accounts.http.get('/users/me/events?service=cloud-nodes').set(bearer(user.accountToken)).expect(200)).body as Array<{
          input: { method: string; resourceId?: string };
        }>;
        return events.some((event) => event.input.method === 'DELETE' && event.input.resourceId === created.id);
      },
      20_000,
      100,
    );
  });
});
