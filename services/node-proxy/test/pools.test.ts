import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HDNodeWallet, keccak256 } from 'ethers';
import { staticKeys } from '@cloud/auth';
import { InProcessBus, message, type AnyBusMessage, type NodeRoute } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { loadProxyConfig, startNodeProxy, type NodeProxy } from '../src';
import { ChainProcess, poolRoute } from './chain-process';
import { basic, callProxy, type ProxyAnswer } from './client';
import { waitUntil } from './harness';
import { inbox, socketTo, type Message } from './websocket-client';

const FREE_PORTS = Object.fromEntries(['BTC', 'BTC_TESTNET', 'LTC', 'ETH', 'AVALANCHE', 'MANAGEMENT', 'ADMIN'].map((name) => [`PROXY_${name}_PORT`, '0']));
const POOL_PASSWORD = 'pool-secret';
/** anvil's funded dev accounts (the same on every anvil started without a mnemonic of its own). */
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * A test fault in front of a real anvil: passes every call on, but answers a call of these
 * methods (or a batch holding one) with HTTP 500 once anvil has taken (and answered) it, as a node
 * failing after the call reached it does.
 */
function failingFront(target: string, failing: ReadonlySet<string>): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void (async () => {
        const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const text = await answer.text();
        const parsed = JSON.parse(body.toString('utf8')) as { method?: string } | Array<{ method?: string }>;
        if ((Array.isArray(parsed) ? parsed : [parsed]).some((call) => failing.has((call.method ?? '').toLowerCase()))) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        } else {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
        }
      })();
    });
  });
}

// Issue 31, pools: two real anvil processes and two real litecoind regtest daemons, each pair behind
// one pool route fed to the proxy over the bus, as the nodes service publishes them.
describe('pools of real nodes through the proxy', () => {
  const logger = createLogger({ service: 'pools-test', level: 'silent' });
  const bus = new InProcessBus(logger);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'proxy-pools-'));
  const keyFile = path.join(dataDir, 'node-rpc.key');
  writeFileSync(keyFile, 'pools-test-node-rpc-key');
  const key = Buffer.from('pools-test-node-rpc-key');
  const routes = new Map<string, NodeRoute>();
  const usage: AnyBusMessage[] = [];
  const reorgs: Array<[string, number]> = [];
  let proxy: NodeProxy;
  let ethA: ChainProcess;
  let ethB: ChainProcess;
  let ltcA: ChainProcess;
  let ltcB: ChainProcess;
  let front: Server;

  /**
   * A proxy on the test's bus. The suite's own runs without the cache: it watches which member
   * serves each call, and the cache would answer eth_chainId or getblockcount itself.
   */
  const startProxy = (env: Record<string, string>) => {
    const config = loadProxyConfig({
      DATA_DIR: dataDir,
      NODE_RPC_KEY_FILE: keyFile,
      LOG_LEVEL: 'silent',
      PROXY_TLS: 'off',
      ...FREE_PORTS,
      PROXY_HEAD_INTERVAL_MS: '100',
      PROXY_POOL_BENCH_MS: '1000',
      PROXY_POOL_FAILURES_TO_BENCH: '3',
      PROXY_USAGE_INTERVAL_MS: '200',
      PROXY_UPSTREAM_TIMEOUT_MS: '10000',
      ...env,
    });
    return startNodeProxy(config, { logger, bus, keys: staticKeys([]) });
  };

  const withPassword = (route: NodeRoute): NodeRoute => ({
    ...route,
    basic: { user: `u-${route.nodeId}`, passwordSha256: createHash('sha256').update(POOL_PASSWORD).digest('hex') },
  });

  beforeAll(async () => {
    [ethA, ethB, ltcA, ltcB] = await Promise.all([
      ChainProcess.create('anvil', 'node-eth-a', key),
      ChainProcess.create('anvil', 'node-eth-b', key),
      ChainProcess.create('litecoind', 'node-ltc-a', key),
      ChainProcess.create('litecoind', 'node-ltc-b', key),
    ]);
    await Promise.all([ethA.start(), ethB.start(), ltcA.start(), ltcB.start()]);
    // A third eth member whose writes (and eth_gasPrice reads) fail once they reached anvil B.
    front = failingFront(ethB.url, new Set(['eth_sendrawtransaction', 'eth_gasprice']));
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const frontRoute = { ...ethB.route(), nodeId: 'node-eth-front', upstream: `http://127.0.0.1:${(front.address() as AddressInfo).port}` };
    for (const route of [
      ethA.route(),
      ethB.route(),
      ltcA.route(),
      ltcB.route(),
      frontRoute,
      withPassword(poolRoute('pool-eth', 'eth', [ethA.nodeId, ethB.nodeId])),
      withPassword(poolRoute('pool-ltc', 'ltc', [ltcA.nodeId, ltcB.nodeId])),
      withPassword(poolRoute('pool-front', 'eth', ['node-eth-front', ethA.nodeId])),
      withPassword(poolRoute('pool-stopped', 'eth', ['node-eth-stopped'])),
      withPassword(poolRoute('pool-cached', 'eth', [ethA.nodeId])),
      { ...ethA.route(), nodeId: 'node-eth-stopped', state: 'stopped' as const, upstream: null },
    ]) {
      routes.set(route.nodeId, route);
    }
    await bus.serve('revocations.snapshot', () => Promise.resolve({ clientKeys: [], credentials: [], users: [], next: null }));
    await bus.serve('nodes.routes', () => Promise.resolve({ routes: [...routes.values()], next: null }));
    await bus.subscribe({ name: 'pools-test.usage', bindings: ['node.usage'], handle: (messages) => Promise.resolve(void usage.push(...messages)) });
    proxy = await startProxy({ PROXY_CACHE_BYTES: '0' });
    proxy.context.heads.onReorg((id, fork) => reorgs.push([id, fork]));
    await waitUntil('the routing table to load', () => proxy.context.sync.loaded, 20_000);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await bus.close();
    await new Promise((resolve) => front?.close(resolve));
    await Promise.all([ethA, ethB, ltcA, ltcB].map((node) => node?.remove()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  const host = (poolId: string) => `${poolId}.${proxy.context.config.NODE_DOMAIN}`;
  const rpc = (poolId: string, method: string, params: unknown[] = []) => {
    const listener = routes.get(poolId)!.image === 'eth' ? 'eth' : 'ltc';
    const jsonrpc = listener === 'eth' ? '2.0' : '1.0';
    return callProxy(proxy, listener, { host: host(poolId), auth: `u-${poolId}:${POOL_PASSWORD}`, body: { jsonrpc, id: method, method, params } });
  };
  const member = (answer: ProxyAnswer) => answer.headers['x-pool-member'] as string | undefined;
  const metric = async (name: string) => {
    const text = await (await fetch(`${proxy.adminUrl}/metrics`)).text();
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  };
  /** Waits until the proxy's head of each member is `height` and every member may serve. */
  const membersAt = (poolId: string, heights: Record<string, number>) =>
    waitUntil(
      `the heads of ${poolId}'s members`,
      () => Object.entries(heights).every(([id, height]) => proxy.context.heads.known(id)?.height === height && proxy.context.heads.mayServe(id)),
      30_000,
      20,
    );

  it('spreads calls among the members, each answer naming its member, and books them per member in the pool usage', async () => {
    await membersAt('pool-eth', { [ethA.nodeId]: 0, [ethB.nodeId]: 0 });
    await membersAt('pool-ltc', { [ltcA.nodeId]: 0, [ltcB.nodeId]: 0 });
    const eth = [];
    for (let n = 0; n < 6; n += 1) eth.push(await rpc('pool-eth', 'eth_chainId'));
    expect(eth.map((answer) => [answer.status, answer.body])).toEqual(eth.map(() => [200, { jsonrpc: '2.0', id: 'eth_chainId', result: '0x7a69' }]));
    expect(new Set(eth.map(member))).toEqual(new Set([ethA.nodeId, ethB.nodeId]));
    const ltc = [];
    for (let n = 0; n < 6; n += 1) ltc.push(await rpc('pool-ltc', 'getblockcount'));
    expect(ltc.map((answer) => [answer.status, answer.body])).toEqual(ltc.map(() => [200, { result: 0, error: null, id: 'getblockcount' }]));
    expect(new Set(ltc.map(member))).toEqual(new Set([ltcA.nodeId, ltcB.nodeId]));
    // REST on a Bitcoin-family pool: the same choice.
    const rest = await callProxy(proxy, 'ltc', { host: host('pool-ltc'), auth: `u-pool-ltc:${POOL_PASSWORD}`, path: '/rest/chaininfo.json' });
    expect(rest).toMatchObject({ status: 200, body: { chain: 'regtest', blocks: 0 } });
    expect([ltcA.nodeId, ltcB.nodeId]).toContain(member(rest));

    const byMember = () => {
      const counts: Record<string, number> = {};
      for (const each of usage) {
        for (const node of (each.payload as { nodes: Array<{ nodeId: string; members: Array<{ nodeId: string; calls: number }> }> }).nodes) {
          if (node.nodeId !== 'pool-eth') continue;
          for (const served of node.members) counts[served.nodeId] = (counts[served.nodeId] ?? 0) + served.calls;
        }
      }
      return counts;
    };
    const expected = {
      [ethA.nodeId]: eth.filter((answer) => member(answer) === ethA.nodeId).length,
      [ethB.nodeId]: eth.filter((answer) => member(answer) === ethB.nodeId).length,
    };
    await waitUntil('the pool usage per member', () => JSON.stringify(byMember()) === JSON.stringify(expected), 10_000, 20);
  });

  it('answers a read on a pool whose members cannot serve with 503, Retry-After and a JSON-RPC error; /status says why', async () => {
    const answer = await rpc('pool-stopped', 'eth_blockNumber');
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      id: 'eth_blockNumber',
      error: { code: -32005, message: expect.stringMatching(/^no member of pool pool-stopped can serve now/) },
    });
    const status = (poolId: string) => callProxy(proxy, 'management', { host: host(poolId), auth: `u-${poolId}:${POOL_PASSWORD}`, path: '/status' });
    expect((await status('pool-stopped')).body).toBe('stopped');
    expect((await status('pool-eth')).body).toBe('healthy');
  });

  it('keeps every read answered while a member is SIGKILLed (each retried on the other), benches it, and brings it back by its head reads once restarted', async () => {
    for (const [pool, [victim, other], read] of [
      ['pool-eth', [ethA, ethB], 'eth_blockNumber'],
      ['pool-ltc', [ltcA, ltcB], 'getblockcount'],
    ] as const) {
      const failoversBefore = await metric('node_proxy_pool_failovers_total');
      const answers: ProxyAnswer[] = [];
      let killed = false;
      const stream = (async () => {
        // A steady stream of reads, four at a time, until the victim is benched and a few more were served.
        let afterBench = 0;
        while (afterBench < 20) {
          answers.push(...(await Promise.all([0, 1, 2, 3].map(() => rpc(pool, read)))));
          if (killed && proxy.context.memberHealth.isBenched(victim.nodeId)) afterBench += 4;
        }
      })();
      await waitUntil('some reads served', () => answers.length >= 20, 10_000, 5);
      await victim.flush();
      await victim.kill();
      killed = true;
      await stream;
      expect(answers.filter((answer) => answer.status !== 200 || (answer.body as { error?: unknown }).error)).toEqual([]);
      expect(await metric('node_proxy_pool_failovers_total')).toBeGreaterThan(failoversBefore);
      expect(await metric('node_proxy_pool_benched_members')).toBe(1);
      // Benched: only the other member serves.
      expect(member(await rpc(pool, read))).toBe(other.nodeId);

      await victim.start();
      await waitUntil('the member to be brought back', async () => (await metric('node_proxy_pool_benched_members')) === 0, 30_000, 50);
      const after = [];
      for (let n = 0; n < 4; n += 1) after.push(await rpc(pool, read));
      expect(after.every((answer) => answer.status === 200)).toBe(true);
      expect(new Set(after.map(member))).toEqual(new Set([victim.nodeId, other.nodeId]));
    }
  }, 120_000);

  it('sends no call to a member 10 blocks behind the best, and calls it again once it caught up', async () => {
    for (const [pool, [ahead, behind], read] of [
      ['pool-eth', [ethA, ethB], 'eth_blockNumber'],
      ['pool-ltc', [ltcA, ltcB], 'getblockcount'],
    ] as const) {
      const start = await ahead.height();
      await behind.mine(start - (await behind.height())); // both at one height first
      const top = await ahead.mine(10);
      await membersAt(pool, { [ahead.nodeId]: top });
      await waitUntil(`the proxy to see ${behind.nodeId} behind`, () => proxy.context.heads.known(behind.nodeId)?.height === start, 10_000, 20);
      const answers = [];
      for (let n = 0; n < 8; n += 1) answers.push(await rpc(pool, read));
      expect(new Set(answers.map(member))).toEqual(new Set([ahead.nodeId]));
      const result = (answer: ProxyAnswer) => Number((answer.body as { result: string | number }).result);
      expect(answers.map(result)).toEqual(answers.map(() => top));

      await behind.mine(10);
      await membersAt(pool, { [ahead.nodeId]: top, [behind.nodeId]: top });
      const caughtUp = [];
      for (let n = 0; n < 4; n += 1) caughtUp.push(await rpc(pool, read));
      expect(new Set(caughtUp.map(member))).toEqual(new Set([ahead.nodeId, behind.nodeId]));
    }
  }, 60_000);

  it("sends a write to one member only, never retrying it after the member failed with a 5xx, where a read's 5xx is retried", async () => {
    const front = 'node-eth-front';
    await membersAt('pool-front', { [ethA.nodeId]: await ethA.height(), [front]: await ethB.height() });
    const hasTransaction = async (node: ChainProcess, hash: string) => (await node.rpc('eth_getTransactionByHash', [hash])) !== null;
    const seen = new Set<string>();
    // One dev account per write, each at nonce 0 on both chains, until a write and a batch holding
    // one went to each member.
    for (let account = 1; seen.size < 4 && account < 10; account += 1) {
      const batch = seen.has(`single ${front}`) && seen.has(`single ${ethA.nodeId}`);
      const wallet = HDNodeWallet.fromPhrase(ANVIL_MNEMONIC, undefined, `m/44'/60'/0'/0/${account}`);
      const raw = await wallet.signTransaction({
        to: wallet.address,
        value: 1n,
        gasLimit: 21_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1n,
        nonce: 0,
        chainId: 31337n,
        type: 2,
      });
      const hash = keccak256(raw);
      const answer = batch
        ? await callProxy(proxy, 'eth', {
            host: host('pool-front'),
            auth: `u-pool-front:${POOL_PASSWORD}`,
            body: [
              { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
              { jsonrpc: '2.0', id: 2, method: 'eth_sendRawTransaction', params: [raw] },
            ],
          })
        : await rpc('pool-front', 'eth_sendRawTransaction', [raw]);
      const servedBy = member(answer)!;
      seen.add(`${batch ? 'batch' : 'single'} ${servedBy}`);
      if (servedBy === front) {
        // The front's anvil took it, then the member answered 500: passed on, not tried on the other member.
        expect(answer.status).toBe(500);
        expect(await hasTransaction(ethB, hash)).toBe(true);
        expect(await hasTransaction(ethA, hash)).toBe(false);
      } else if (batch) {
        expect(answer).toMatchObject({
          status: 200,
          body: [
            { id: 1, result: '0x7a69' },
            { id: 2, result: hash },
          ],
        });
        expect(await hasTransaction(ethA, hash)).toBe(true);
        expect(await hasTransaction(ethB, hash)).toBe(false);
      } else {
        expect(answer).toMatchObject({ status: 200, body: { result: hash } });
        expect(await hasTransaction(ethA, hash)).toBe(true);
        expect(await hasTransaction(ethB, hash)).toBe(false);
      }
    }
    expect(seen).toEqual(new Set([`single ${front}`, `single ${ethA.nodeId}`, `batch ${front}`, `batch ${ethA.nodeId}`]));

    // A read the front fails with a 500 is answered by the other member.
    const failovers = await metric('node_proxy_pool_failovers_total');
    const reads = [];
    for (let n = 0; n < 4; n += 1) reads.push(await rpc('pool-front', 'eth_gasPrice'));
    expect(reads.map((answer) => [answer.status, member(answer)])).toEqual(reads.map(() => [200, ethA.nodeId]));
    expect(await metric('node_proxy_pool_failovers_total')).toBeGreaterThan(failovers);
  }, 60_000);

  it("reports a reorg of a member's chain with its fork height, for the member and for its pool", async () => {
    const top = await ethA.height();
    await membersAt('pool-eth', { [ethA.nodeId]: top });
    reorgs.length = 0;
    await ethA.rpc('anvil_reorg', [3, []]);
    await waitUntil('the reorg of the eth member', () => reorgs.some(([id]) => id === 'pool-eth'), 10_000, 20);
    expect(reorgs).toEqual(
      expect.arrayContaining([
        [ethA.nodeId, top - 2],
        ['pool-eth', top - 2],
      ]),
    );

    const height = await ltcA.height();
    await membersAt('pool-ltc', { [ltcA.nodeId]: height });
    reorgs.length = 0;
    await ltcA.rpc('invalidateblock', [await ltcA.rpc('getblockhash', [height - 1])]);
    await ltcA.mine(3, 'raw(52)');
    await waitUntil('the reorg of the ltc member', () => reorgs.some(([id]) => id === 'pool-ltc'), 10_000, 20);
    expect(reorgs).toEqual(
      expect.arrayContaining([
        [ltcA.nodeId, height - 1],
        ['pool-ltc', height - 1],
      ]),
    );
  });

  it("keeps a pool's final answers under the pool's id, and drops them when a member's chain reorgs deeper than the finality depth", async () => {
    const cached = await startProxy({});
    try {
      const call = (id: number, method: string, params: unknown[]) =>
        callProxy(cached, 'eth', { host: host('pool-cached'), auth: `u-pool-cached:${POOL_PASSWORD}`, body: { jsonrpc: '2.0', id, method, params } });
      // Ten blocks at once: the tracker sees the head jump, and knows few of the hashes below it.
      const top = await ethA.mine(10);
      await waitUntil('the pool head', () => cached.context.heads.headOf(cached.context.table.get('pool-cached')!)?.height === top, 30_000, 10);
      const block = `0x${(top - 4).toString(16)}`;
      const first = await call(1, 'eth_getBlockByNumber', [block, false]);
      expect(first.headers).toMatchObject({ 'x-cache': 'miss', 'x-pool-member': ethA.nodeId });
      const kept = await call(2, 'eth_getBlockByNumber', [block, false]);
      expect(kept.headers['x-cache']).toBe('hit');
      expect(kept.text).toBe(first.text.replace('"id":1', '"id":2'));
      // Six blocks replaced, deeper than the dev chain's finality depth of 2, on the member itself.
      const drops = async () => (await cached.context.metrics.cacheReorgDrops.get()).values.reduce((sum, value) => sum + value.value, 0);
      const before = await drops();
      await ethA.rpc('anvil_reorg', [6, []]);
      await waitUntil('the pool to drop what the reorg changed', async () => (await drops()) > before, 30_000, 20);
      const node = (await ethA.rpc('eth_getBlockByNumber', [block, false])) as { hash: string };
      expect(node.hash).not.toBe((kept.body as { result: { hash: string } }).result.hash);
      const after = await call(3, 'eth_getBlockByNumber', [block, false]);
      expect(after.headers['x-cache']).toBe('miss');
      expect((after.body as { result: unknown }).result).toEqual(node);
    } finally {
      await cached.close();
    }
  });

  /** A WebSocket on a pool, once open: the member named in its upgrade answer, its inbox and how it closes. */
  const poolSocket = async (poolId: string) => {
    const ws = socketTo(proxy, host(poolId), basic(`u-${poolId}:${POOL_PASSWORD}`));
    const upgrade = new Promise<IncomingMessage>((resolve) => ws.on('upgrade', resolve));
    const box = inbox(ws);
    const closed = once(ws, 'close').then(([code]) => code as number);
    await once(ws, 'open');
    return { ws, box, closed, member: (await upgrade).headers['x-pool-member'] as string };
  };
  /** Each anvil's genesis block is its own (started at its own time): which node answered. */
  const genesisOf = async (node: ChainProcess) => ((await node.rpc('eth_getBlockByNumber', ['0x0', false])) as { hash: string }).hash;

  it('bridges a WebSocket on a pool to one member chosen at connect, named in the upgrade answer', async () => {
    const sockets = [await poolSocket('pool-eth'), await poolSocket('pool-eth')];
    expect(new Set(sockets.map((socket) => socket.member))).toEqual(new Set([ethA.nodeId, ethB.nodeId]));
    for (const [index, socket] of sockets.entries()) {
      socket.ws.send(JSON.stringify({ jsonrpc: '2.0', id: index, method: 'eth_getBlockByNumber', params: ['0x0', false] }));
      const answer = await socket.box.next<Message>('the genesis block', (message) => !Array.isArray(message) && message.id === index);
      expect((answer.result as { hash: string }).hash).toBe(await genesisOf(socket.member === ethA.nodeId ? ethA : ethB));
      socket.ws.close();
      await socket.closed;
    }
  });

  it('publishes a pool change over the bus: a member taken out gets no more calls, and its pool WebSockets are closed', async () => {
    const sockets = [await poolSocket('pool-eth'), await poolSocket('pool-eth')];
    const onA = sockets.find((socket) => socket.member === ethA.nodeId)!;
    const onB = sockets.find((socket) => socket.member === ethB.nodeId)!;
    await bus.publish([
      message('pool.changed', withPassword(poolRoute('pool-eth', 'eth', [ethB.nodeId], 2)) as NodeRoute & { pool: NonNullable<NodeRoute['pool']> }),
    ]);
    await waitUntil('the pool change', () => proxy.context.table.get('pool-eth')?.revision === 2, 10_000, 20);
    const answers = [];
    for (let n = 0; n < 4; n += 1) answers.push(await rpc('pool-eth', 'eth_chainId'));
    expect(new Set(answers.map(member))).toEqual(new Set([ethB.nodeId]));
    expect(await onA.closed).toBe(1001);
    onB.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'still', method: 'eth_chainId', params: [] }));
    expect(await onB.box.next('an answer on the socket that stays', (message) => !Array.isArray(message) && message.id === 'still')).toMatchObject({
      result: '0x7a69',
    });
    onB.ws.close();
    await onB.closed;
  });
});
