import { isDeepStrictEqual } from 'node:util';
import type { AnyBusMessage } from '@cloud/bus';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import type { Counter } from 'prom-client';
import type { NodeProxy } from '../src';
import type { ListenerName } from '../src/routing/interfaces';
import { basic, callProxy } from './client';
import { startProxyPlatform, waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from './harness';

// The answer cache in front of real nodes (anvil, litecoind on regtest, each mining a block a
// second): what it keeps, how it answers, that policy, rate and usage apply to what it answers,
// and that a reorg deeper than the finality depth leaves nothing stale. Both nodes run private
// dev chains: blocks are final two below the tracked head (PROXY_FINALITY_BLOCKS_DEV).

const HEAD_INTERVAL_MS = 200;
const FAST = { PROXY_HEAD_INTERVAL_MS: String(HEAD_INTERVAL_MS), PROXY_RATE_PER_SECOND: '100000', PROXY_RATE_BURST: '100000' };

let platform: ProxyPlatform;
let user: TestUser;

beforeAll(async () => {
  platform = await startProxyPlatform();
  user = await platform.user();
}, 180_000);
afterAll(() => platform?.close());

/** One node behind a proxy, with the calls a test makes to both. */
function endpoint(listener: ListenerName, dialect: '1.0' | '2.0') {
  const self = {
    node: undefined as unknown as CreatedNode,
    route: (proxy: NodeProxy) => proxy.context.table.get(self.node.id)!,
    body: (id: unknown, method: string, params: unknown[] = []) => ({ jsonrpc: dialect, id, method, params }),
    rpc: (proxy: NodeProxy, body: unknown) =>
      callProxy(proxy, listener, { host: self.node.address, auth: basic(`${self.node.nodeUser}:${self.node.nodePass}`), body }),
    /** The node's own answer, past the proxy, with its internal login: the text as it wrote it. */
    async direct(proxy: NodeProxy, body: unknown): Promise<string> {
      const answer = await fetch(self.route(proxy).upstream!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: nodeRpcAuthorization(platform.rpcKey, self.node.id) },
        body: JSON.stringify(body),
      });
      return answer.text();
    },
    async result<T>(proxy: NodeProxy, method: string, params: unknown[] = []): Promise<T> {
      return (JSON.parse(await self.direct(proxy, self.body('t', method, params))) as { result: T }).result;
    },
    /** Waits until the proxy tracks a head at `height` or above; the head. */
    async head(proxy: NodeProxy, height: number) {
      await waitUntil(`the tracked head at ${height}`, () => (proxy.context.heads.headOf(self.route(proxy))?.height ?? -1) >= height, 60_000, 50);
      return proxy.context.heads.headOf(self.route(proxy))!;
    },
  };
  return self;
}

/** A counter's value (a family's child, or the whole). */
async function count(counter: Counter<string>, family?: string): Promise<number> {
  const { values } = await counter.get();
  return values.filter((value) => family === undefined || value.labels.family === family).reduce((sum, value) => sum + value.value, 0);
}

/** The cache's counters of a proxy, to compare before and after. */
async function counters(proxy: NodeProxy, family: string) {
  const { metrics } = proxy.context;
  return {
    hits: await count(metrics.cacheHits, family),
    misses: await count(metrics.cacheMisses, family),
    merged: await count(metrics.cacheInflightMerged, family),
    evictions: await count(metrics.cacheEvictions),
    reorgDrops: await count(metrics.cacheReorgDrops),
  };
}

const withId = (text: string, from: string, to: string) => text.replace(`"id":${from}`, `"id":${to}`);

describe('the cache in front of anvil', () => {
  const eth = endpoint('eth', '2.0');
  let proxy: NodeProxy;

  beforeAll(async () => {
    proxy = await platform.startProxy(FAST);
    eth.node = await platform.createNode(user, { image: 'eth' });
    await eth.head(proxy, 8);
  }, 120_000);

  it('answers a final block by number from the cache the second time: the node’s bytes with the caller’s id, the node not asked', async () => {
    const nodeText = await eth.direct(proxy, eth.body(1, 'eth_getBlockByNumber', ['0x1', false]));
    const before = await counters(proxy, 'ethereum');
    const first = await eth.rpc(proxy, eth.body(1, 'eth_getBlockByNumber', ['0x1', false]));
    expect(first).toMatchObject({ status: 200, text: nodeText, headers: { 'x-cache': 'miss' } });
    const second = await eth.rpc(proxy, eth.body('mine', 'eth_getBlockByNumber', ['0x1', false]));
    expect(second).toMatchObject({ status: 200, text: withId(nodeText, '1', '"mine"'), headers: { 'x-cache': 'hit' } });
    const after = await counters(proxy, 'ethereum');
    expect([after.misses - before.misses, after.hits - before.hits]).toEqual([1, 1]);
  });

  it('answers a batch whose every call is kept from the cache, in order, each with its id; any other batch goes to the node', async () => {
    const batch = [eth.body('a', 'eth_getBlockByNumber', ['0x1', false]), eth.body('b', 'eth_chainId')];
    await eth.rpc(proxy, batch[1]);
    const nodeText = await eth.direct(proxy, batch);
    expect(await eth.rpc(proxy, batch)).toMatchObject({ status: 200, text: nodeText, headers: { 'x-cache': 'hit' } });
    const mixed = await eth.rpc(proxy, [batch[1], eth.body('c', 'eth_getBlockByNumber', ['latest', false])]);
    expect(mixed).toMatchObject({
      status: 200,
      body: [
        { id: 'b', result: '0x7a69' },
        { id: 'c', result: expect.any(Object) },
      ],
    });
    expect(mixed.headers['x-cache']).toBeUndefined();
  });

  it('never keeps a block above the final height, an error or a null', async () => {
    const before = await counters(proxy, 'ethereum');
    const head = proxy.context.heads.headOf(eth.route(proxy))!.height;
    for (let i = 0; i < 2; i++) {
      const atHead = await eth.rpc(proxy, eth.body(i, 'eth_getBlockByNumber', [`0x${head.toString(16)}`, false]));
      expect(atHead).toMatchObject({ status: 200, body: { result: { number: `0x${head.toString(16)}` } } });
      // Not cacheable: it goes to the node as any call, unmarked.
      expect(atHead.headers['x-cache']).toBeUndefined();
      const latest = await eth.rpc(proxy, eth.body(i, 'eth_getBlockByNumber', ['latest', false]));
      expect(latest.headers['x-cache']).toBeUndefined();
      const error = await eth.rpc(proxy, eth.body(i, 'eth_getBlockByHash', ['0x12', false]));
      expect(error).toMatchObject({ status: 200, body: { id: i, error: { code: expect.any(Number) } }, headers: { 'x-cache': 'miss' } });
      const unknown = await eth.rpc(proxy, eth.body(i, 'eth_getTransactionReceipt', [`0x${'ab'.repeat(32)}`]));
      expect(unknown).toMatchObject({ status: 200, body: { id: i, result: null }, headers: { 'x-cache': 'miss' } });
    }
    const after = await counters(proxy, 'ethereum');
    expect([after.misses - before.misses, after.hits - before.hits]).toEqual([4, 0]);
  });

  it('answers the head from the tracked head, as the node says it within the freshness', async () => {
    let answer: Awaited<ReturnType<typeof eth.rpc>> | undefined;
    // A head read within two intervals: on a loaded machine a read may come late, and the call then goes to the node.
    await waitUntil('a head answer', async () => (answer = await eth.rpc(proxy, eth.body(3, 'eth_blockNumber'))).headers['x-cache'] === 'hit', 10_000, 20);
    const nodeHead = Number.parseInt(await eth.result<string>(proxy, 'eth_blockNumber'), 16);
    const served = Number.parseInt((answer!.body as { result: string }).result, 16);
    expect(answer!.text).toBe(`{"jsonrpc":"2.0","id":3,"result":"0x${served.toString(16)}"}`);
    // A block a second; the head is at most 2 × 200 ms old.
    expect(nodeHead - served).toBeGreaterThanOrEqual(0);
    expect(nodeHead - served).toBeLessThanOrEqual(1);
  });

  it('sends 20 identical calls at once to the node once, each answered with its own id', async () => {
    const nodeText = await eth.direct(proxy, eth.body(0, 'eth_getBlockByNumber', ['0x2', true]));
    const before = await counters(proxy, 'ethereum');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => eth.rpc(proxy, eth.body(i, 'eth_getBlockByNumber', ['0x2', true]))));
    answers.forEach((answer, i) => expect(answer).toMatchObject({ status: 200, text: withId(nodeText, '0', String(i)) }));
    const after = await counters(proxy, 'ethereum');
    expect(after.misses - before.misses).toBe(1);
    expect(after.merged - before.merged + (after.hits - before.hits)).toBe(19);
  });

  it('holds its byte bound, letting the least recently used go', async () => {
    const small = await platform.startProxy({ ...FAST, PROXY_CACHE_BYTES: '6000' });
    try {
      await eth.head(small, 8);
      for (let block = 1; block <= 5; block++) {
        const answer = await eth.rpc(small, eth.body(block, 'eth_getBlockByNumber', [`0x${block.toString(16)}`, false]));
        expect(answer.headers['x-cache']).toBe('miss');
        expect(small.context.cache!.answers.bytes).toBeLessThanOrEqual(6000);
      }
      expect(await count(small.context.metrics.cacheEvictions)).toBeGreaterThan(0);
      // The oldest is gone, the newest still there.
      expect((await eth.rpc(small, eth.body(9, 'eth_getBlockByNumber', ['0x5', false]))).headers['x-cache']).toBe('hit');
      expect((await eth.rpc(small, eth.body(9, 'eth_getBlockByNumber', ['0x1', false]))).headers['x-cache']).toBe('miss');
    } finally {
      await small.close();
    }
  });

  it('with PROXY_CACHE_BYTES=0 keeps nothing and answers no head itself', async () => {
    const none = await platform.startProxy({ ...FAST, PROXY_CACHE_BYTES: '0' });
    try {
      expect(none.context.cache).toBeUndefined();
      for (const body of [eth.body(1, 'eth_chainId'), eth.body(1, 'eth_chainId'), eth.body(2, 'eth_blockNumber')]) {
        const answer = await eth.rpc(none, body);
        expect(answer).toMatchObject({ status: 200, body: { result: expect.stringMatching(/^0x/) } });
        expect(answer.headers['x-cache']).toBeUndefined();
      }
    } finally {
      await none.close();
    }
  });

  it('counts cached answers in usage, and applies the rate to them', async () => {
    const published: AnyBusMessage[] = [];
    await platform.bus.subscribe({ name: 'cache-usage-copies', bindings: ['node.usage'], handle: async (messages) => void published.push(...messages) });
    // The fake clock stands still: the burst of 4 is all this replica gets.
    const limited = await platform.startProxy({ ...FAST, PROXY_RATE_PER_SECOND: '1', PROXY_RATE_BURST: '4', PROXY_INSTANCE_ID: 'cache-usage' });
    try {
      const headers = [];
      for (let i = 0; i < 3; i++) headers.push((await eth.rpc(limited, eth.body(i, 'eth_chainId'))).headers['x-cache']);
      expect(headers).toEqual(['miss', 'hit', 'hit']);
      expect((await eth.rpc(limited, eth.body(4, 'eth_chainId'))).headers['x-cache']).toBe('hit');
      // Over the burst: refused before it is read, cached or not.
      const over = await eth.rpc(limited, eth.body(5, 'eth_chainId'));
      expect(over.status).toBe(429);
      await limited.context.usage.flush();
      const mine = () =>
        published
          .filter((message) => message.kind === 'node.usage' && message.payload.proxyId === 'cache-usage')
          .flatMap((message) => (message.kind === 'node.usage' ? message.payload.nodes : []))
          .filter((usage) => usage.nodeId === eth.node.id);
      // The bus delivers to its subscribers a moment after the publish.
      await waitUntil('the usage to be published', () => mine().length > 0, 10_000, 20);
      const cached = mine().reduce((sum, usage) => sum + usage.cachedCalls, 0);
      const calls = (method: string, outcome: string) =>
        mine()
          .flatMap((usage) => usage.calls)
          .filter((each) => each.method === method && each.outcome === outcome)
          .reduce((sum, each) => sum + each.calls, 0);
      expect(cached).toBe(3);
      expect([calls('eth_chainid', 'ok'), calls('eth_chainid', 'rate_limited')]).toEqual([4, 0]);
      expect(calls('unread', 'rate_limited')).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it('a reorg deeper than the finality depth: the cached block is dropped once the tracker sees it, and answered as the node has it', async () => {
    const head = await eth.head(proxy, 12);
    const height = `0x${(head.height - 4).toString(16)}`;
    const block = (id: number) => eth.body(id, 'eth_getBlockByNumber', [height, false]);
    await eth.rpc(proxy, block(1));
    const kept = await eth.rpc(proxy, block(2));
    expect(kept.headers['x-cache']).toBe('hit');
    const oldHash = (kept.body as { result: { hash: string } }).result.hash;
    const before = await counters(proxy, 'ethereum');
    // Six blocks replaced: deeper than the dev chain's finality depth of 2 (the dev layer's anvil_reorg, past the proxy).
    expect(JSON.parse(await eth.direct(proxy, eth.body(1, 'anvil_reorg', [6, []])))).toMatchObject({ result: null });
    const nodeText = await eth.direct(proxy, block(3));
    expect((JSON.parse(nodeText) as { result: { hash: string } }).result.hash).not.toBe(oldHash);
    await waitUntil('the tracker to see the reorg', async () => (await counters(proxy, 'ethereum')).reorgDrops > before.reorgDrops, 30_000, 50);
    const after = await eth.rpc(proxy, block(3));
    expect(after).toMatchObject({ status: 200, text: nodeText, headers: { 'x-cache': 'miss' } });
  });

  it('after the owner mines through the proxy (the dev layer), reads their own change: the head and kept blocks are not trusted until read again', async () => {
    await eth.rpc(proxy, eth.body(1, 'eth_getBlockByNumber', ['0x1', false]));
    expect((await eth.rpc(proxy, eth.body(2, 'eth_getBlockByNumber', ['0x1', false]))).headers['x-cache']).toBe('hit');
    const mined = await eth.rpc(proxy, eth.body(3, 'anvil_mine', ['0x5']));
    expect(mined).toMatchObject({ status: 200, body: { result: null } });
    const nodeHead = Number.parseInt(await eth.result<string>(proxy, 'eth_blockNumber'), 16);
    const head = await eth.rpc(proxy, eth.body(4, 'eth_blockNumber'));
    expect(Number.parseInt((head.body as { result: string }).result, 16)).toBeGreaterThanOrEqual(nodeHead);
    expect(head.headers['x-cache']).toBeUndefined();
    // The kept block was dropped: once the head is trusted again it is asked of the node anew.
    let again: Awaited<ReturnType<typeof eth.rpc>> | undefined;
    await waitUntil(
      'the head trusted again',
      async () => (again = await eth.rpc(proxy, eth.body(5, 'eth_getBlockByNumber', ['0x1', false]))).headers['x-cache'] !== undefined,
      10_000,
      20,
    );
    expect(again!.headers['x-cache']).toBe('miss');
  });

  it('refuses a cached method its owner refuses, as it refuses a forwarded one', async () => {
    expect((await eth.rpc(proxy, eth.body(1, 'eth_chainId'))).body).toMatchObject({ result: '0x7a69' });
    expect((await eth.rpc(proxy, eth.body(1, 'eth_chainId'))).headers['x-cache']).toBe('hit');
    const answer = await platform.nodes.http
      .put(`/users/me/nodes/${eth.node.id}/access`)
      .set('authorization', `Bearer ${user.clientToken}`)
      .send({ refusedMethods: ['eth_chainId'] })
      .expect(200);
    await waitUntil('the proxy to apply the rule', () => isDeepStrictEqual(eth.route(proxy).access, answer.body.access), 5_000, 10);
    const refused = await eth.rpc(proxy, eth.body(2, 'eth_chainId'));
    expect(refused).toMatchObject({ status: 200, body: { id: 2, error: { code: -32601, data: { refusedBy: 'accessRule', method: 'eth_chainId' } } } });
    expect(refused.headers['x-cache']).toBeUndefined();
  });
});

describe('the cache in front of litecoind (regtest)', () => {
  const ltc = endpoint('ltc', '1.0');
  let proxy: NodeProxy;

  beforeAll(async () => {
    proxy = await platform.startProxy(FAST);
    ltc.node = await platform.createNode(user, { image: 'ltc' });
    await ltc.head(proxy, 8);
  }, 120_000);

  type Block = { hash: string; height: number; confirmations: number; nextblockhash?: string };

  it('keeps a final block and rewrites its confirmations from the tracked head as blocks are mined', async () => {
    const head = await ltc.head(proxy, 8);
    const height = head.height - 4;
    const hash = await ltc.result<string>(proxy, 'getblockhash', [height]);
    const first = await ltc.rpc(proxy, ltc.body(1, 'getblock', [hash, 2]));
    expect(first.headers['x-cache']).toBe('miss');
    expect((first.body as { result: Block }).result).toMatchObject({ hash, height, nextblockhash: expect.any(String) });
    // Two blocks later, the kept answer says what the node says: the node's bytes, its count of confirmations, the caller's id.
    const confirmations = (first.body as { result: Block }).result.confirmations;
    await ltc.head(proxy, head.height + 2);
    let served: Awaited<ReturnType<typeof ltc.rpc>> | undefined;
    let nodeText = '';
    await waitUntil(
      'the kept block to match the node’s, mined meanwhile',
      async () => {
        served = await ltc.rpc(proxy, ltc.body('again', 'getblock', [hash, 2]));
        nodeText = await ltc.direct(proxy, ltc.body('again', 'getblock', [hash, 2]));
        return served.headers['x-cache'] === 'hit' && served.text === nodeText;
      },
      20_000,
      20,
    );
    expect((served!.body as { result: Block }).result.confirmations).toBeGreaterThanOrEqual(confirmations + 2);
    // getblockhash of a final height, kept too.
    await ltc.rpc(proxy, ltc.body(5, 'getblockhash', [height]));
    expect(await ltc.rpc(proxy, ltc.body(6, 'getblockhash', [height]))).toMatchObject({
      text: `{"result":"${hash}","error":null,"id":6}\n`,
      headers: { 'x-cache': 'hit' },
    });
  });

  it('answers getblockcount and getbestblockhash from the tracked head', async () => {
    let count: Awaited<ReturnType<typeof ltc.rpc>> | undefined;
    await waitUntil('a head answer', async () => (count = await ltc.rpc(proxy, ltc.body(1, 'getblockcount'))).headers['x-cache'] === 'hit', 10_000, 20);
    const nodeCount = await ltc.result<number>(proxy, 'getblockcount');
    const served = (count!.body as { result: number }).result;
    expect(count!.text).toBe(`{"result":${served},"error":null,"id":1}\n`);
    expect(nodeCount - served).toBeGreaterThanOrEqual(0);
    expect(nodeCount - served).toBeLessThanOrEqual(1);
    const best = await ltc.rpc(proxy, ltc.body(2, 'getbestblockhash'));
    expect((best.body as { result: string }).result).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a reorg deeper than the finality depth (invalidateblock, then another miner’s blocks): nothing stale is served after the tracker sees it', async () => {
    const head = await ltc.head(proxy, 10);
    const height = head.height - 4;
    const hash = await ltc.result<string>(proxy, 'getblockhash', [height]);
    for (const id of [1, 2]) await ltc.rpc(proxy, ltc.body(id, 'getblockhash', [height]));
    for (const id of [1, 2]) await ltc.rpc(proxy, ltc.body(id, 'getblock', [hash, 1]));
    expect((await ltc.rpc(proxy, ltc.body(3, 'getblock', [hash, 1]))).headers['x-cache']).toBe('hit');
    const before = await counters(proxy, 'bitcoin');
    // On the node itself, with its internal login: the block and those above it invalid, then a longer chain of other blocks.
    expect(await ltc.result(proxy, 'invalidateblock', [hash])).toBeNull();
    await ltc.result(proxy, 'generatetodescriptor', [8, 'raw(52)']);
    await waitUntil('the tracker to see the reorg', async () => (await counters(proxy, 'bitcoin')).reorgDrops > before.reorgDrops, 30_000, 50);
    const newHash = await ltc.result<string>(proxy, 'getblockhash', [height]);
    expect(newHash).not.toBe(hash);
    expect((await ltc.rpc(proxy, ltc.body(4, 'getblockhash', [height]))).body).toMatchObject({ result: newHash });
    // The old block is off the best chain now: the node says -1 confirmations, and so does the proxy.
    const nodeText = await ltc.direct(proxy, ltc.body(5, 'getblock', [hash, 1]));
    expect(JSON.parse(nodeText)).toMatchObject({ result: { confirmations: -1 } });
    expect(await ltc.rpc(proxy, ltc.body(5, 'getblock', [hash, 1]))).toMatchObject({ text: nodeText, headers: { 'x-cache': 'miss' } });
  });
});
