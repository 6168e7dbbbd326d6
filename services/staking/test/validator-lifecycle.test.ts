import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '@cloud/nodes/testing';
import { startTestStaking, type TestStaking } from '../src/testing';

const MINUTE = 60_000;
const fuji = '/staking/avalanche/fuji';

/** A JSON-RPC 2.0 call to the validator's node itself (as the node-proxy forwards one). */
async function callNode(upstream: string, apiPath: string, method: string, params: object): Promise<{ result?: unknown; error?: unknown }> {
  const response = await fetch(new URL(apiPath, upstream), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: unknown };
}

// The whole path with real parts: the staking service makes the validator's identity, the nodes
// service runs its node on the dev chain's avalanche mode with that certificate, the validator
// is registered on that private P-chain (its dev-only way: a real one is registered from the
// user's wallet), and the status the staking service reads through the node follows.
// Over RabbitMQ too, as separate deployments talk: the node asked for, and its staking key
// handed over, between two services on their own connections.
describe.each([
  ['the in-process bus', false],
  ['RabbitMQ', true],
])('a validator, from creation to validating, on a real node, over %s', (_bus, rabbitmq) => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let staking: TestStaking;
  let user: TestUser;

  beforeAll(async () => {
    platform = await startTestPlatform({ rabbitmq });
    nodes = await platform.startNodes();
    staking = await startTestStaking(platform);
    user = await platform.user();
  });
  afterAll(async () => {
    await staking.close();
    await platform.close();
  });

  const get = (nodeId: string) => staking.http.get(`${fuji}/validators/${nodeId}`).set(bearer(user.clientToken));

  it('knows the NodeID at once, the node reports the same one, and registration moves it from unregistered to pending to validating', async () => {
    const created = await staking.http.post(`${fuji}/validators`).set(bearer(user.clientToken)).set('content-type', 'application/json');
    expect(created.status).toBe(200);
    const { nodeId, chainNodeId } = created.body as { nodeId: string; chainNodeId: string };
    expect(chainNodeId).toMatch(/^NodeID-[1-9A-HJ-NP-Za-km-z]{30,34}$/);

    await waitUntil('the validator node runs', async () => ((await get(nodeId)).body as { state: string }).state === 'running', 30_000, 100);
    const node = (await nodes.service.db('nodes').where({ id: nodeId }).first('image', 'upstream_url')) as { image: string; upstream_url: string };
    expect(node.image).toBe('avalanchefuji');
    expect(await callNode(node.upstream_url, '/ext/info', 'info.getNodeID', {})).toMatchObject({ result: { nodeID: chainNodeId } });
    expect((await get(nodeId)).body).toMatchObject({ nodeId, chainNodeId, chain: 'avalanche', network: 'fuji', registration: { status: 'unregistered' } });

    // Registered to start in two minutes, for two weeks, with 2,000 AVAX (in nAVAX).
    const start = Math.floor((platform.clock() + 2 * MINUTE) / 1000);
    const end = start + 14 * 24 * 3600;
    const registered = await callNode(node.upstream_url, '/ext/dev', 'dev.registerValidator', {
      nodeID: chainNodeId,
      startTime: start,
      endTime: end,
      weight: '2000000000000',
    });
    expect(registered).toMatchObject({ result: { txID: expect.any(String) } });

    platform.clock.advance(11_000); // past the cached "unregistered"
    const pending = (await get(nodeId).expect(200)).body as { registration: Record<string, unknown> };
    expect(pending.registration).toMatchObject({
      status: 'pending',
      startTime: new Date(start * 1000).toISOString(),
      endTime: new Date(end * 1000).toISOString(),
      stake: '2000000000000',
    });
    const refusedPending = await staking.http.delete(`${fuji}/validators/${nodeId}`).set(bearer(user.clientToken));
    expect([refusedPending.status, (refusedPending.body as { code: string }).code]).toEqual([409, 'Conflict']);

    platform.clock.advance(2 * MINUTE);
    const validating = (await get(nodeId).expect(200)).body as { registration: Record<string, unknown> };
    expect(validating.registration).toMatchObject({ status: 'validating', stake: '2000000000000', connected: true });
    const refused = await staking.http.delete(`${fuji}/validators/${nodeId}`).set(bearer(user.clientToken));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'Conflict', message: expect.stringContaining(new Date(end * 1000).toISOString()) });
    // Still there, still running.
    expect((await get(nodeId).expect(200)).body).toMatchObject({ state: 'running' });
    expect((await nodes.service.db('nodes').where({ id: nodeId }).first('state')) as { state: string }).toEqual({ state: 'running' });
  }, 180_000);

  it('deletes an unregistered validator and its node', async () => {
    const { nodeId } = (await staking.http.post(`${fuji}/validators`).set(bearer(user.clientToken)).expect(200)).body as { nodeId: string };
    await waitUntil('the validator node runs', async () => ((await get(nodeId)).body as { state: string }).state === 'running', 30_000, 100);
    await staking.http.delete(`${fuji}/validators/${nodeId}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil(
      'its node is deleted',
      async () => ((await nodes.service.db('nodes').where({ id: nodeId }).first('state')) as { state: string }).state === 'deleted',
      20_000,
      100,
    );
    await get(nodeId).expect(404);
  }, 180_000);
});
