import { stat } from 'node:fs/promises';
import path from 'node:path';
import 'reflect-metadata';
import { message, type AnyBusMessage, type InProcessBus } from '@cloud/bus';
import { avalancheNodeIdFromPem } from '@cloud/chains';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { stakingPair } from './staking-pair';

/** What the node's avalanchego API answers at `path`. */
async function callNode(upstream: string, apiPath: string, method: string, params: object = {}): Promise<unknown> {
  const response = await fetch(new URL(apiPath, upstream), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

// Validator nodes: the staking service asks for them over the bus, with the node's id and Basic
// credentials, and hands over the staking TLS pair when the driver asks; the local driver runs
// them on the dev chain's avalanche mode (no avalanchego here).
describe('validator nodes', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;
  let pair: { certificatePem: string; keyPem: string };
  const tlsRequests: string[] = [];
  const heard: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
    pair = await stakingPair();
    // Stands in for the staking service.
    await platform.bus.serve('staking.validator-tls', ({ nodeId }) => {
      tlsRequests.push(nodeId);
      return Promise.resolve(pair);
    });
    await platform.bus.subscribe({ name: 'validator-nodes-test', bindings: ['node.*'], handle: (messages) => Promise.resolve(void heard.push(...messages)) });
    nodes = await platform.startNodes({ MAX_NODES_PER_USER: '1' });
    user = await platform.user();
  });
  afterAll(() => platform.close());

  const nodeRow = async (id: string) =>
    (await nodes.service.db('nodes').where({ id }).first('state', 'image', 'credentials', 'upstream_url', 'state_reason')) as
      | {
          state: string;
          image: string;
          credentials: Array<{ name: string; user: string; passwordSha256: string }>;
          upstream_url: string | null;
          state_reason: string | null;
        }
      | undefined;

  it('runs a validator node with the staking pair it was given, so it reports the NodeID of that certificate', async () => {
    const nodeId = 'node-6f1c2a9e-1b7d-4c55-9a0e-3f2d8c4b7a61';
    const created = message('validator.created', {
      nodeId,
      userId: user.id,
      image: 'avalanchefuji',
      basic: { user: 'uvalidator01', passwordSha256: sha256('the-password') },
    });
    await platform.bus.publish([created]);
    await waitUntil('the validator node runs', async () => (await nodeRow(nodeId))?.state === 'running', 30_000, 100);

    const row = await nodeRow(nodeId);
    expect(row).toMatchObject({
      image: 'avalanchefuji',
      credentials: [expect.objectContaining({ name: 'default', user: 'uvalidator01', passwordSha256: sha256('the-password') })],
    });
    expect(tlsRequests).toContain(nodeId);
    const reported = (await callNode(row!.upstream_url!, '/ext/info', 'info.getNodeID')) as { nodeID: string };
    expect(reported.nodeID).toBe(avalancheNodeIdFromPem(pair.certificatePem));
    expect(await callNode(row!.upstream_url!, '/ext/info', 'info.getNetworkID')).toEqual({ networkID: '5' });
    // The key is where the node reads it, readable by this user only.
    const keyFile = path.join(platform.dataDir, 'nodes', nodeId, 'staking', 'staker.key');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);

    // The user sees it among their nodes, with the staking chain's port, but cannot delete it here.
    const listed = (await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken)).expect(200)).body as Array<{
      id: string;
      image: string;
      chain: string;
      network: string;
      ports: object;
    }>;
    expect(listed).toEqual([expect.objectContaining({ id: nodeId, image: 'avalanchefuji', chain: 'avalanche', network: 'fuji', ports: { jsonRpc: 9650 } })]);
    const refused = await nodes.http.delete(`/users/me/nodes/${nodeId}`).set(bearer(user.clientToken));
    expect([refused.status, refused.body]).toEqual([
      409,
      { code: 'Conflict', message: expect.stringContaining(`DELETE /staking/avalanche/fuji/validators/${nodeId}`) },
    ]);
    expect((await nodeRow(nodeId))?.state).toBe('running');
    // It counts towards the staking service's limit, not this one (1 here): an eth node still fits.
    const eth = await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'eth' });
    expect(eth.status).toBe(200);
    await nodes.http
      .delete(`/users/me/nodes/${(eth.body as { id: string }).id}`)
      .set(bearer(user.clientToken))
      .expect(200);
    // Validators are not offered to users directly.
    const chains = (await nodes.http.get('/chains').set(bearer(user.clientToken)).expect(200)).body as Array<{ image: string }>;
    expect(chains.map((each) => each.image)).not.toContain('avalanchefuji');

    // A redelivered request changes nothing; the staking service's deletion takes the node down.
    await platform.bus.publish([created]);
    await platform.bus.publish([message('validator.deleted', { nodeId, userId: user.id })]);
    await waitUntil('the validator node is deleted', async () => (await nodeRow(nodeId))?.state === 'deleted', 20_000, 100);
    const [{ count }] = (await nodes.service.db('nodes').where({ id: nodeId }).count({ count: '*' })) as [{ count: string | number }];
    expect(Number(count)).toBe(1);
    await waitUntil('node.deleted is heard', () => heard.some((each) => each.kind === 'node.deleted' && each.payload.nodeId === nodeId));
    expect(heard.filter((each) => 'nodeId' in each.payload && each.payload.nodeId === nodeId).map((each) => each.kind)).toEqual([
      'node.created',
      'node.running',
      'node.deleting',
      'node.deleted',
    ]);
  }, 180_000);

  it('takes a deletion of a node that is gone as done', async () => {
    const gone = 'node-00000000-0000-4000-8000-000000000000';
    await platform.bus.publish([message('validator.deleted', { nodeId: gone, userId: user.id })]);
    await platform.bus.publish([
      message('validator.created', { nodeId: gone, userId: user.id, image: 'avalanche', basic: { user: 'ux', passwordSha256: sha256('x') } }),
    ]);
    await waitUntil('the later creation is handled', async () => (await nodeRow(gone)) !== undefined, 20_000, 50);
    // A deletion that was retried (first retry after 250 ms) would now take the node created after it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await nodeRow(gone))?.state).toMatch(/^(provisioning|running)$/);
    expect((platform.bus as InProcessBus).deadLetters('nodes.validators')).toEqual([]);
  }, 30_000);
});
