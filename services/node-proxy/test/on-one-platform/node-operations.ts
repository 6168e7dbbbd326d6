import type { NodeProxy } from '../../src';
import type { ListenerName } from '../../src/routing/interfaces';
import { callProxy } from '../client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

// Stop, start and resize of nodes running real software (Litecoin Core on regtest and anvil, as
// the local driver runs them in the dev mode), seen through the node-proxy as a user sees them:
// 503 NodeStopped while stopped, then the same chain at the same address with the same login.
describe('node operations through the proxy', () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    proxy = await platform.startProxy({ PROXY_RATE_PER_SECOND: '100000', PROXY_RATE_BURST: '100000' });
    user = await platform.user();
  }, 120_000);
  afterAll(() => platform?.close());

  const nodesApi = (method: 'get' | 'post' | 'patch', path: string) => platform.nodes.http[method](path).set('authorization', `Bearer ${user.clientToken}`);
  const record = async (node: CreatedNode) =>
    (await nodesApi('get', `/users/me/nodes/${node.id}`).expect(200)).body as { state: string; large: boolean; address: string };

  /** Waits until the nodes API and the proxy's routing table both have the node in `state`. */
  async function settle(node: CreatedNode, state: string): Promise<void> {
    await waitUntil(
      `node ${node.id} to be ${state}`,
      async () => (await record(node)).state === state && proxy.context.table.get(node.id)?.state === state,
      60_000,
      100,
    );
  }

  function rpcOf(node: CreatedNode, listener: ListenerName, dialect: '1.0' | '2.0') {
    const call = (method: string, params: unknown[] = []) =>
      callProxy(proxy, listener, { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, body: { jsonrpc: dialect, id: 1, method, params } });
    const result = async (method: string, params: unknown[] = []) => {
      const answer = await call(method, params);
      expect([method, answer.status, (answer.body as { error?: unknown }).error ?? null]).toEqual([method, 200, null]);
      return (answer.body as { result: unknown }).result;
    };
    return { call, result };
  }

  const status = (node: CreatedNode) => callProxy(proxy, 'management', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, path: '/status' });

  /** The last "Using N MiB for in-memory UTXO set" of Bitcoin Core's start-up log: what its -dbcache gave it. */
  async function utxoCacheMiB(node: CreatedNode): Promise<number | undefined> {
    const logs = (await nodesApi('get', `/users/me/nodes/${node.id}/logs?lines=10000`).expect(200)).body as string[];
    const sizes = logs.flatMap((line) => /Using ([\d.]+) MiB for in-memory UTXO set/.exec(line)?.[1] ?? []);
    return sizes.length > 0 ? Number(sizes.at(-1)) : undefined;
  }

  describe('a Litecoin Core node', () => {
    let node: CreatedNode;
    let ltc: ReturnType<typeof rpcOf>;
    let height: number;
    let tip: unknown;

    beforeAll(async () => {
      node = await platform.createNode(user, { image: 'ltc' });
      ltc = rpcOf(node, 'ltc', '1.0');
      await waitUntil('five blocks', async () => ((await ltc.result('getblockcount')) as number) >= 5, 30_000, 200);
    }, 120_000);

    it('answers 503 NodeStopped once stopped, and "stopped" on the management port', async () => {
      height = (await ltc.result('getblockcount')) as number;
      tip = await ltc.result('getblockhash', [height]);
      await nodesApi('post', `/users/me/nodes/${node.id}/stop`).expect(200);
      await settle(node, 'stopped');
      expect(await ltc.call('getblockcount')).toMatchObject({
        status: 503,
        body: { code: 'NodeStopped', message: `node ${node.id} is stopped; start it to call it again` },
      });
      expect(await callProxy(proxy, 'ltc', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, path: '/rest/chaininfo.json' })).toMatchObject({
        status: 503,
        body: { code: 'NodeStopped' },
      });
      expect(await status(node)).toMatchObject({ status: 200, body: 'stopped' });
      // Wrong credentials are refused first: a stopped node tells strangers nothing.
      expect(await callProxy(proxy, 'ltc', { host: node.address, auth: `${node.nodeUser}:wrong`, body: { method: 'getblockcount' } })).toMatchObject({
        status: 401,
      });
    });

    it('starts again on the same chain, at the same address, with the same Basic login', async () => {
      await nodesApi('post', `/users/me/nodes/${node.id}/start`).expect(200);
      await settle(node, 'running');
      expect((await record(node)).address).toBe(node.address);
      expect((await ltc.result('getblockcount')) as number).toBeGreaterThanOrEqual(height);
      // The same blocks, not a new chain of the same length.
      expect(await ltc.result('getblockhash', [height])).toBe(tip);
      expect(await status(node)).toMatchObject({ status: 200, body: 'healthy' });
    });

    it('resizes: restarted with the large class (a bigger -dbcache), the chain kept', async () => {
      const standardCache = await utxoCacheMiB(node);
      const resized = await nodesApi('patch', `/users/me/nodes/${node.id}`).send({ large: true }).expect(200);
      expect(resized.body).toMatchObject({ state: 'stopping', large: true });
      await waitUntil(
        'the resized node runs',
        async () => (await record(node)).state === 'running' && proxy.context.table.get(node.id)?.state === 'running',
        60_000,
        100,
      );
      expect(await record(node)).toMatchObject({ state: 'running', large: true });
      expect((await ltc.result('getblockcount')) as number).toBeGreaterThanOrEqual(height);
      expect(await ltc.result('getblockhash', [height])).toBe(tip);
      expect(standardCache).toBeLessThan(500);
      expect(await utxoCacheMiB(node)).toBeGreaterThan(900);
    });
  });

  describe('an anvil node', () => {
    it("keeps its chain across stop and start (anvil's --state file in the node's directory)", async () => {
      const node = await platform.createNode(user, { image: 'eth' });
      const eth = rpcOf(node, 'eth', '2.0');
      await waitUntil('three blocks', async () => Number(await eth.result('eth_blockNumber')) >= 3, 30_000, 200);
      const height = Number(await eth.result('eth_blockNumber'));
      const block = (await eth.result('eth_getBlockByNumber', [`0x${height.toString(16)}`, false])) as { hash: string };

      await nodesApi('post', `/users/me/nodes/${node.id}/stop`).expect(200);
      await settle(node, 'stopped');
      expect(await eth.call('eth_blockNumber')).toMatchObject({ status: 503, body: { code: 'NodeStopped' } });

      await nodesApi('post', `/users/me/nodes/${node.id}/start`).expect(200);
      await settle(node, 'running');
      expect(Number(await eth.result('eth_blockNumber'))).toBeGreaterThanOrEqual(height);
      expect(await eth.result('eth_getBlockByNumber', [`0x${height.toString(16)}`, false])).toMatchObject({ hash: block.hash });
    }, 120_000);
  });
});
