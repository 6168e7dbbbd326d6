import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findOnPath } from '../src/drivers/local/software';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { asProxy, jsonRpc, recordedPid } from './rpc-client';

// Real Litecoin Core: LITECOIND_PATH, else litecoind on PATH. CI must have it; elsewhere the tests are skipped.
const litecoind = process.env.LITECOIND_PATH || findOnPath('litecoind');
if (!litecoind && process.env.CI) throw new Error('litecoind is missing: install it or set LITECOIND_PATH');
const describeWithLitecoind = litecoind ? describe : describe.skip;

interface NodeAnswer {
  id: string;
  state: string;
  dev: boolean;
  network: string;
  sync: { height: number; progress: number; peers: number; syncing: boolean; checkedAt: string } | null;
}

/**
 * LOCAL_NETWORKS=public with real litecoind: an ltc node runs Litecoin mainnet. No peer is
 * reachable here, and LTC_PEERS=none keeps it from trying the internet (-connect=0), so it must
 * stay `syncing` rather than claim to run.
 */
describeWithLitecoind(`LOCAL_NETWORKS=public on real litecoind${litecoind ? '' : ' (skipped: litecoind not found; set LITECOIND_PATH)'}`, () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;

  beforeAll(async () => {
    platform = await startTestPlatform();
    nodes = await platform.startNodes({ LOCAL_NETWORKS: 'public', LTC_PEERS: 'none', LOCAL_PRUNE_MB: '550', LITECOIND_PATH: litecoind! });
    user = await platform.user();
  }, 180_000);
  afterAll(() => platform?.close());

  const asUser = () => bearer(user.clientToken);
  const getNode = async (id: string) => (await nodes.http.get(`/users/me/nodes/${id}`).set(asUser()).expect(200)).body as NodeAnswer;

  it('offers ltc on its real network, pruned; images without their real software stay dev chains and say so', async () => {
    const chains = (await nodes.http.get('/chains').set(asUser()).expect(200)).body as Array<{ image: string; network: string; dev: boolean; pruned: boolean }>;
    const byImage = Object.fromEntries(chains.map((option) => [option.image, option]));
    expect(byImage.ltc).toMatchObject({ network: 'mainnet', dev: false, pruned: true });
    expect(byImage.eth).toMatchObject({ dev: true, pruned: false }); // anvil
    expect(byImage.btc).toMatchObject({ dev: true, pruned: false }); // the dev chain: no bitcoind here
  });

  it('refuses a txindex on a pruned node with 400, creating nothing', async () => {
    const response = await nodes.http.post('/users/me/nodes').set(asUser()).send({ image: 'ltc', txindex: true });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'InvalidInput',
      message: expect.stringMatching(/^body\.txindex: ltc nodes here are pruned .* a pruned node cannot have a transaction index$/),
    });
    expect((await nodes.http.get('/users/me/nodes').set(asUser()).expect(200)).body).toEqual([]);
  });

  it('runs an ltc node on Litecoin mainnet, which stays syncing without peers', async () => {
    const created = (await nodes.http.post('/users/me/nodes').set(asUser()).send({ image: 'ltc' }).expect(200)).body as NodeAnswer;
    expect(created).toMatchObject({ network: 'mainnet', dev: false, state: 'provisioning' });
    let node = created;
    await waitUntil('the node answers', async () => (node = await getNode(created.id)).state !== 'provisioning', 60_000, 100);
    expect(node).toMatchObject({ state: 'syncing', sync: { height: 0, progress: 0, peers: 0, syncing: true } });

    // Its own word: mainnet, pruned to what LOCAL_PRUNE_MB says, started without any peer.
    const row = (await nodes.service.db('nodes').where({ id: created.id }).first()) as { upstream_url: string };
    const info = await jsonRpc(asProxy({ url: row.upstream_url }, platform.rpcKey, created.id), 'getblockchaininfo');
    expect(info.result).toMatchObject({ chain: 'main', pruned: true, initialblockdownload: true });
    const commandLine = (await readFile(`/proc/${await recordedPid(path.join(platform.dataDir, 'nodes'), created.id)}/cmdline`, 'utf8')).split('\0');
    expect(commandLine).toEqual(expect.arrayContaining(['-prune=550', '-connect=0', '-listen=0']));
    expect(commandLine.filter((arg) => /^-(regtest|testnet)/.test(arg))).toEqual([]);

    // Asked again (every 5 s) it is still syncing: it never claims to run.
    await sleep(6000);
    expect(await getNode(created.id)).toMatchObject({ state: 'syncing', sync: { syncing: true, peers: 0 } });
    await nodes.http.delete(`/users/me/nodes/${created.id}`).set(asUser()).expect(200);
  }, 180_000);
});
