import net from 'node:net';
import type { AnyBusMessage } from '@cloud/bus';
import type { InternalEndpoint } from '../src';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { asProxy, jsonRpc } from './rpc-client';

/** Whether something listens on the endpoint's port. */
function portInUse(endpoint: InternalEndpoint): Promise<boolean> {
  const { hostname, port } = new URL(endpoint.url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// The whole flow with a client token, on real node software: the node comes up, its JSON-RPC
// answers at the driver's endpoint to the credentials the node-proxy derives, and deleting it
// stops the process and frees the port. Every change reaches the bus with the node's route.
describe.each([
  ['eth', 'anvil', 'eth_blockNumber', (result: unknown) => expect(result).toMatch(/^0x[0-9a-f]+$/)],
  ['ltc', 'litecoind', 'getblockcount', (result: unknown) => expect(Number.isInteger(result)).toBe(true)],
  ['btc', 'the dev chain', 'getblockcount', (result: unknown) => expect(Number.isInteger(result)).toBe(true)],
])('a %s node (%s)', (image, _software, method, checkResult) => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;
  const heard: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
    await platform.bus.subscribe({
      name: `lifecycle-test-${image}`,
      bindings: ['node.*'],
      handle: async (messages) => {
        heard.push(...messages);
      },
    });
    nodes = await platform.startNodes();
    user = await platform.user();
  });
  afterAll(() => platform.close());

  it('is created, runs, answers its JSON-RPC, and is deleted with its process', async () => {
    const created = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image }).expect(200)).body as {
      id: string;
      state: string;
      nodeUser: string;
      nodePass: string;
    };
    expect(created.state).toBe('provisioning');

    await waitUntil(
      `the ${image} node runs`,
      async () => {
        const node = (await nodes.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
        return node.state === 'running';
      },
      45_000,
      100,
    );

    const status = await nodes.service.driver.status(created.id);
    if (status.state !== 'running') throw new Error(`driver says ${status.state}`);
    const answer = await jsonRpc(asProxy(status.endpoint, platform.rpcKey, created.id), method);
    expect(answer.status).toBe(200);
    checkResult(answer.result);
    expect(await portInUse(status.endpoint)).toBe(true);

    const deleting = await nodes.http.delete(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200);
    expect(deleting.body).toMatchObject({ id: created.id, state: 'deleting' });

    await waitUntil(
      'the node is gone',
      async () => {
        const response = await nodes.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken));
        return response.status === 404;
      },
      30_000,
      100,
    );
    expect((await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken)).expect(200)).body).toEqual([]);
    expect(await nodes.service.driver.status(created.id)).toEqual({ state: 'absent' });
    expect(await portInUse(status.endpoint)).toBe(false);
    // Kept for audit, as deleted.
    expect(await nodes.service.db('nodes').where({ id: created.id }).first()).toMatchObject({ state: 'deleted', owner: null });

    // Every change went out on the bus, in order, each at a higher revision.
    await waitUntil('node.deleted is heard', () => heard.some((each) => each.kind === 'node.deleted'), 10_000);
    const lifecycle = heard.filter((each) => 'nodeId' in each.payload && each.payload.nodeId === created.id);
    expect(lifecycle.map((each) => each.kind)).toEqual(['node.created', 'node.running', 'node.deleting', 'node.deleted']);
    const revisions = lifecycle.map((each) => (each.payload as { revision: number }).revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(new Set(revisions).size).toBe(4);
    const basic = { user: created.nodeUser, passwordSha256: sha256(created.nodePass) };
    const route = {
      nodeId: created.id,
      userId: user.id,
      image,
      chain: image,
      dev: true,
      basic,
      credentials: [{ id: expect.stringMatching(/^cred-/), ...basic }],
    };
    expect(lifecycle.map((each) => each.payload)).toEqual([
      { ...route, revision: revisions[0], state: 'provisioning', upstream: null },
      { ...route, revision: revisions[1], state: 'running', upstream: status.endpoint.url, address: `${created.id}.nodes.localhost` },
      { ...route, revision: revisions[2], state: 'deleting', upstream: null },
      { ...route, revision: revisions[3], state: 'deleted', upstream: null },
    ]);
  });
});
