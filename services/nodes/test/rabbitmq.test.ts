import { bearer, startTestPlatform, waitUntil, type TestPlatform } from './harness';
import { jsonRpc } from './rpc-client';

// The same flow with the services talking over RabbitMQ (and PostgreSQL when DATABASE_URL is
// set), as separate deployments would: provisioning requests, state changes and call events.
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
    await waitUntil('the nodes service has its revocations', async () => (await a.http.get('/readyz')).status === 200, 15_000, 100);

    const created = (await a.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string };
    await waitUntil('the node runs', async () => {
      const node = (await b.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
      return node.state === 'running';
    }, 45_000, 100);
    const owner = (await a.service.repository.owners()).get(created.id) === 'rabbit-a' ? a : b;
    const status = await owner.service.driver.status(created.id);
    if (status.state !== 'running') throw new Error(`driver says ${status.state}`);
    expect((await jsonRpc(status.endpoint, 'eth_blockNumber')).result).toMatch(/^0x[0-9a-f]+$/);

    await b.http.delete(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil('the node is gone', async () => (await a.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken))).status === 404, 30_000, 100);
    expect(await owner.service.driver.status(created.id)).toEqual({ state: 'absent' });

    await waitUntil('the calls are in the event list', async () => {
      const events = (await platform.accounts.http.get('/users/me/events?service=cloud-nodes').set(bearer(user.accountToken)).expect(200)).body as Array<{
        input: { method: string; resourceId?: string };
      }>;
      return events.some((event) => event.input.method === 'DELETE' && event.input.resourceId === created.id);
    }, 20_000, 100);
  });
});
