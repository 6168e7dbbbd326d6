import { findOnPath } from '@cloud/nodes/testing';
import type { NodeProxy } from '../src';
import { callProxy } from './client';
import { startProxyPlatform, waitUntil, type ProxyPlatform, type TestUser } from './harness';
import { LitecoinSeed } from './litecoin-seed';

// Real Litecoin Core: LITECOIND_PATH, else litecoind on PATH. CI must have it; elsewhere the tests are skipped.
const litecoind = process.env.LITECOIND_PATH || findOnPath('litecoind');
if (!litecoind && process.env.CI) throw new Error('litecoind is missing: install it or set LITECOIND_PATH');
const describeWithLitecoind = litecoind ? describe : describe.skip;

const SEED_BLOCKS = 300;

interface NodeAnswer {
  id: string;
  address: string;
  state: string;
  dev: boolean;
  txindex: boolean;
  nodeUser: string;
  nodePass: string;
  sync: { height: number; bestKnownHeight: number; progress: number; peers: number; syncing: boolean } | null;
}

/**
 * A private network without the internet: a litecoind regtest seed holding a few hundred blocks,
 * and hosted nodes told by LTC_PEERS to peer with it alone. The seed is taken away while the
 * nodes start, so each is seen syncing (it answers, at progress 0) before the seed comes back
 * and it catches up: deterministic, however fast the blocks then arrive.
 */
describeWithLitecoind(`hosted nodes syncing from a private network${litecoind ? '' : ' (skipped: litecoind not found; set LITECOIND_PATH)'}`, () => {
  let seed: LitecoinSeed;
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;
  let coinbaseTxid: string;

  beforeAll(async () => {
    seed = await LitecoinSeed.create(litecoind!);
    await seed.start();
    expect(await seed.mine(SEED_BLOCKS)).toBe(SEED_BLOCKS);
    coinbaseTxid = await seed.coinbaseTxid(5);
    await seed.stop();
    platform = await startProxyPlatform({ nodesEnv: { LTC_PEERS: seed.address, LITECOIND_PATH: litecoind! } });
    proxy = await platform.startProxy();
    user = await platform.user();
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
    await seed?.remove();
  });

  const nodeApi = () => platform.nodes.http;
  const getNode = async (id: string) =>
    (await nodeApi().get(`/users/me/nodes/${id}`).set('authorization', `Bearer ${user.clientToken}`).expect(200)).body as NodeAnswer;
  const rpc = (node: NodeAnswer, method: string, params: unknown[] = []) =>
    callProxy(proxy, 'ltc', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, body: { jsonrpc: '1.0', id: method, method, params } });
  const status = (node: NodeAnswer) => callProxy(proxy, 'management', { host: node.address, auth: `${node.nodeUser}:${node.nodePass}`, path: '/status' });

  it('goes provisioning → syncing (answering, /status "syncing") → running with rising progress, then "healthy"; with txindex, getrawtransaction finds a mined transaction', async () => {
    const create = (body: Record<string, unknown>) =>
      nodeApi().post('/users/me/nodes').set('authorization', `Bearer ${user.clientToken}`).send(body).expect(200);
    const indexed = (await create({ image: 'ltc', txindex: true })).body as NodeAnswer;
    const plain = (await create({ image: 'ltc' })).body as NodeAnswer;
    expect(indexed).toMatchObject({ state: 'provisioning', dev: true, txindex: true, sync: null });

    // No peer is reachable yet: the node answers but stays behind, at progress 0.
    const syncing = await waitUntilNode(indexed.id, (node) => node.state === 'syncing');
    expect(syncing.sync).toMatchObject({ height: 0, progress: 0, syncing: true, peers: 0 });
    expect((await status(indexed)).body).toBe('syncing');
    // Calls reach a syncing node: it answers them itself.
    expect((await rpc(indexed, 'getblockcount')).body).toMatchObject({ result: 0, error: null });
    expect((await getNode(indexed.id)).state).toBe('syncing'); // still, without peers

    const seen: number[] = [syncing.sync!.progress];
    await seed.start();
    const running = await waitUntilNode(indexed.id, (node) => {
      if (node.sync) seen.push(node.sync.progress);
      return node.state === 'running';
    });
    expect(running.sync).toMatchObject({ height: SEED_BLOCKS, bestKnownHeight: SEED_BLOCKS, progress: 1, syncing: false, peers: 1 });
    expect(seen.some((progress) => progress < 1)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b)); // never backwards
    expect(await status(indexed)).toMatchObject({ body: 'healthy', headers: { 'x-node-dev-chain': 'true' } });

    // The transaction index finds a transaction that is in no mempool and no wallet.
    const found = await rpc(indexed, 'getrawtransaction', [coinbaseTxid, true]);
    expect(found).toMatchObject({ status: 200, body: { error: null, result: { txid: coinbaseTxid } } });
    // A node without it cannot: the index is what answers.
    await waitUntilNode(plain.id, (node) => node.state === 'running');
    const missing = await rpc(plain, 'getrawtransaction', [coinbaseTxid, true]);
    expect(missing.body).toMatchObject({ result: null, error: { message: expect.stringMatching(/txindex/) } });
  }, 120_000);

  async function waitUntilNode(id: string, done: (node: NodeAnswer) => boolean): Promise<NodeAnswer> {
    let last: NodeAnswer | undefined;
    await waitUntil(`node ${id} to move on`, async () => done((last = await getNode(id))), 60_000, 100);
    return last!;
  }
});
