import { AnswerCache } from '../src/cache/answer-cache';
import { cacheKey, confirmationsSpan, ethBlockNumber, withConfirmations } from '../src/cache/cache-rules';
import { CallCache, type CacheCounters, type KeptPlan } from '../src/cache/call-cache';
import type { Head, HeadSource } from '../src/cache/head-source';
import { InFlight } from '../src/cache/in-flight';
import { findMembers, memberText } from '../src/cache/json-members';
import type { Route } from '../src/routing/route-table';
import { waitUntil } from './harness';

// The cache's rules on plain data: the heads are what a test says they are.

const route = (nodeId: string, family: 'ethereum' | 'bitcoin', dev = false) => ({ nodeId, dev, interfaces: { family } }) as unknown as Route;
const depths = { PROXY_FINALITY_BLOCKS_BITCOIN: 6, PROXY_FINALITY_BLOCKS_ETHEREUM: 64, PROXY_FINALITY_BLOCKS_DEV: 2 };
const NOW = 1_000_000;

class Heads implements HeadSource {
  readonly heads = new Map<string, Head>();
  private readonly listeners: ((routeId: string, forkHeight: number) => void)[] = [];
  headOf(of: Route): Head | undefined {
    return this.heads.get(of.nodeId);
  }
  onReorg(listener: (routeId: string, forkHeight: number) => void): void {
    this.listeners.push(listener);
  }
  reorg(routeId: string, forkHeight: number): void {
    for (const listener of this.listeners) listener(routeId, forkHeight);
  }
}

function counting(): CacheCounters & { counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  const add = (name: string) => (n: unknown) => void (counts[name] = (counts[name] ?? 0) + (typeof n === 'number' ? n : 1));
  return { counts, hit: add('hit'), miss: add('miss'), merged: add('merged'), evicted: add('evicted'), reorgDropped: add('reorgDropped') };
}

function cacheWith(heads: Heads, bytes = 1 << 20) {
  const counters = counting();
  return { cache: new CallCache({ ...depths, PROXY_CACHE_BYTES: bytes, PROXY_HEAD_INTERVAL_MS: 1000, heads, counters, now: () => NOW }), counters };
}

const call = (method: string, params?: unknown[]) => ({ jsonrpc: '2.0', id: 7, method, ...(params ? { params } : {}) });

describe('the cache key', () => {
  it('is the endpoint, family, method and params, never the id', () => {
    const heads = new Heads();
    heads.heads.set('n1', { height: 200, hash: 'h', readAt: NOW });
    const { cache } = cacheWith(heads);
    const eth = route('n1', 'ethereum');
    const a = cache.plan(eth, { ...call('eth_getBlockByNumber', ['0x10', false]), id: 1 }, false) as KeptPlan;
    const b = cache.plan(eth, { ...call('eth_getBlockByNumber', ['0x10', false]), id: 'other' }, false) as KeptPlan;
    const c = cache.plan(eth, call('eth_getBlockByNumber', ['0x10', true]), false) as KeptPlan;
    const other = cache.plan(route('pool-1', 'ethereum'), call('eth_getBlockByNumber', ['0x10', false]), false);
    expect(a.key).toBe(cacheKey('n1', 'ethereum', 'eth_getBlockByNumber', '["0x10",false]'));
    expect(b.key).toBe(a.key);
    expect(c.key).not.toBe(a.key);
    // No head known for the pool: nothing is final there.
    expect(other).toBeUndefined();
  });
});

describe('which calls may be kept', () => {
  const heads = new Heads();
  heads.heads.set('eth', { height: 100, hash: '0xhead', readAt: NOW });
  heads.heads.set('dev', { height: 100, hash: '0xhead', readAt: NOW });
  heads.heads.set('btc', { height: 100, hash: 'head', readAt: NOW - 5000 });
  const { cache } = cacheWith(heads);
  const eth = route('eth', 'ethereum');
  const dev = route('dev', 'ethereum', true);
  const plan = (at: Route, method: string, params?: unknown[]) => cache.plan(at, call(method, params), false);

  it('keeps a block by number at or below the head less the finality depth (64 on Ethereum, 2 on a dev chain)', () => {
    expect(plan(eth, 'eth_getBlockByNumber', ['0x24', false])).toMatchObject({ kind: 'kept', height: 36 });
    expect(plan(eth, 'eth_getBlockByNumber', ['0x25', false])).toBeUndefined();
    expect(plan(dev, 'eth_getBlockByNumber', ['0x62', false])).toMatchObject({ height: 98 });
    expect(plan(dev, 'eth_getBlockByNumber', ['0x63', false])).toBeUndefined();
    expect(plan(eth, 'eth_getBlockByNumber', ['earliest', false])).toMatchObject({ height: 0 });
  });

  it('keeps nothing named by a tag it cannot resolve honestly, nor a notification', () => {
    for (const tag of ['latest', 'pending', 'safe', 'finalized']) expect(plan(eth, 'eth_getBlockByNumber', [tag, false])).toBeUndefined();
    expect(plan(eth, 'eth_getBalance', ['0x00000000000000000000000000000000000000aa'])).toBeUndefined();
    expect(plan(eth, 'eth_call', [{ to: '0x00000000000000000000000000000000000000aa' }, '0x1'])).toMatchObject({ height: 1 });
    expect(plan(eth, 'eth_getStorageAt', ['0x00000000000000000000000000000000000000aa', '0x0', { blockNumber: '0x2' }])).toMatchObject({ height: 2 });
    const { id: _id, ...notification } = call('eth_chainId', []);
    expect(cache.plan(eth, notification, false)).toBeUndefined();
    expect(plan(eth, 'eth_sendRawTransaction', ['0x00'])).toBeUndefined();
    // The node answers another casing with an error: not the cache's to hide.
    expect(plan(eth, 'ETH_BLOCKNUMBER', [])).toBeUndefined();
    expect(plan(eth, 'eth_getblockbynumber', ['0x1', false])).toBeUndefined();
  });

  it('keeps logs of a numbered range that is final, by its end', () => {
    expect(plan(eth, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x24' }])).toMatchObject({ height: 36 });
    expect(plan(eth, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x25' }])).toBeUndefined();
    expect(plan(eth, 'eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest' }])).toBeUndefined();
    expect(plan(eth, 'eth_getLogs', [{ blockHash: `0x${'1'.repeat(64)}` }])).toBeUndefined();
  });

  it('answers the head only when it was read within two head intervals', () => {
    expect(plan(eth, 'eth_blockNumber', [])).toEqual({ kind: 'head', family: 'ethereum', result: '"0x64"' });
    expect(plan(route('btc', 'bitcoin'), 'getblockcount', [])).toBeUndefined();
    heads.heads.set('btc2', { height: 100, hash: 'ab', readAt: NOW - 2000 });
    expect(plan(route('btc2', 'bitcoin'), 'getblockcount', [])).toEqual({ kind: 'head', family: 'bitcoin', result: '100' });
    expect(plan(route('btc2', 'bitcoin'), 'getbestblockhash', [])).toMatchObject({ result: '"ab"' });
  });

  it('keeps an answer found by hash once its block is final, and no null or error', async () => {
    const byHash = plan(eth, 'eth_getTransactionReceipt', [`0x${'a'.repeat(64)}`]) as KeptPlan;
    expect(byHash).toMatchObject({ height: 'answer' });
    expect(await cache.keep(byHash, '{"blockNumber":"0x25","status":"0x1"}', () => Promise.resolve(undefined))).toBe(false);
    expect(await cache.keep(byHash, 'null', () => Promise.resolve(undefined))).toBe(false);
    expect(cache.lookup(byHash)).toBeUndefined();
    expect(await cache.keep(byHash, '{"blockNumber":"0x24","status":"0x1"}', () => Promise.resolve(undefined))).toBe(true);
    expect(cache.lookup(byHash)).toBe('{"blockNumber":"0x24","status":"0x1"}');
    expect(cache.resultOf('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}')).toBeUndefined();
    expect(cache.resultOf('{"result":null,"error":{"code":-5,"message":"x"},"id":1}')).toBeUndefined();
    expect(cache.resultOf('{"result":{"a":[1,"]"]},"error":null,"id":1}\n')).toBe('{"a":[1,"]"]}');
  });
});

describe('Bitcoin confirmations', () => {
  const block = '{"hash":"00ab","confirmations":7,"height":94,"tx":[{"txid":"ff","vout":[{"value":50.00000000,"confirmations":"no"}]}],"nextblockhash":"00cd"}';

  it('are found at the top level and rewritten in place from the head', () => {
    const span = confirmationsSpan(block)!;
    expect(block.slice(span.start, span.end)).toBe('7');
    const served = withConfirmations(block, span, 94, { height: 120, hash: 'x', readAt: 0 });
    expect(JSON.parse(served)).toMatchObject({ confirmations: 27, height: 94 });
    // The rest as the node wrote it (amounts keep their digits).
    expect(served).toBe(block.replace('"confirmations":7', '"confirmations":27'));
    expect(memberText(block, 'height')).toBe('94');
    expect(findMembers('[{"blockNumber":"0x5"}]', ['blockNumber'], 1).get('blockNumber')).toEqual({ start: 16, end: 21 });
  });

  it('are kept only for a block final by the tracked head and by the node’s own count, and served from a fresh head', async () => {
    const heads = new Heads();
    heads.heads.set('btc', { height: 100, hash: 'head', readAt: NOW });
    const { cache } = cacheWith(heads);
    const btc = route('btc', 'bitcoin');
    const getblock = cache.plan(btc, call('getblock', [`${'0'.repeat(60)}00ab`, 2]), false) as KeptPlan;
    expect(await cache.keep(getblock, block, () => Promise.resolve(undefined))).toBe(true);
    expect(JSON.parse(cache.lookup(getblock)!)).toMatchObject({ confirmations: 7 });
    heads.heads.set('btc', { height: 103, hash: 'head3', readAt: NOW });
    expect(JSON.parse(cache.lookup(getblock)!)).toMatchObject({ confirmations: 10 });
    heads.heads.set('btc', { height: 103, hash: 'head3', readAt: NOW - 2001 });
    expect(cache.lookup(getblock)).toBeUndefined();
    // A block off the node's best chain says -1; one the node counts fewer than final is not kept either.
    heads.heads.set('btc', { height: 100, hash: 'head', readAt: NOW });
    const stale = cache.plan(btc, call('getblock', [`${'0'.repeat(60)}00ee`, 1]), false) as KeptPlan;
    expect(await cache.keep(stale, block.replace('"confirmations":7', '"confirmations":-1'), () => Promise.resolve(undefined))).toBe(false);
    expect(await cache.keep(stale, block.replace('"confirmations":7', '"confirmations":6'), () => Promise.resolve(undefined))).toBe(false);
  });

  it('of a transaction come from its block, found by its hash', async () => {
    const heads = new Heads();
    heads.heads.set('btc', { height: 100, hash: 'head', readAt: NOW });
    const { cache } = cacheWith(heads);
    const btc = route('btc', 'bitcoin');
    const txid = 'f'.repeat(64);
    expect(cache.plan(btc, call('getrawtransaction', [txid]), false)).toBeUndefined();
    const tx = cache.plan(btc, call('getrawtransaction', [txid, true]), false) as KeptPlan;
    const answer = `{"txid":"${txid}","vout":[],"blockhash":"${'b'.repeat(64)}","confirmations":11,"time":1}`;
    const asked: string[] = [];
    const place = (hash: string) => (asked.push(hash), Promise.resolve({ height: 90, confirmations: 11 }));
    expect(await cache.keep(tx, answer, place)).toBe(true);
    expect(asked).toEqual(['b'.repeat(64)]);
    heads.heads.set('btc', { height: 101, hash: 'next', readAt: NOW });
    expect(JSON.parse(cache.lookup(tx)!)).toMatchObject({ confirmations: 12 });
  });
});

describe('the answer store', () => {
  it('drops an endpoint’s answers at and above a reorg’s fork, and no other', async () => {
    const heads = new Heads();
    heads.heads.set('a', { height: 100, hash: 'x', readAt: NOW });
    heads.heads.set('b', { height: 100, hash: 'x', readAt: NOW });
    const { cache, counters } = cacheWith(heads);
    const keep = async (at: string, height: number) => {
      const plan = cache.plan(route(at, 'ethereum', true), call('eth_getBlockByNumber', [`0x${height.toString(16)}`, false]), false) as KeptPlan;
      await cache.keep(plan, `{"number":"0x${height.toString(16)}"}`, () => Promise.resolve(undefined));
      return plan;
    };
    const [a10, a20, a30, b30] = [await keep('a', 10), await keep('a', 20), await keep('a', 30), await keep('b', 30)];
    const chainId = cache.plan(route('a', 'ethereum', true), call('eth_chainId', []), false) as KeptPlan;
    await cache.keep(chainId, '"0x7a69"', () => Promise.resolve(undefined));
    heads.reorg('a', 20);
    expect([cache.lookup(a10), cache.lookup(a20), cache.lookup(a30), cache.lookup(b30), cache.lookup(chainId)]).toEqual([
      '{"number":"0xa"}',
      undefined,
      undefined,
      '{"number":"0x1e"}',
      '"0x7a69"',
    ]);
    expect(counters.counts.reorgDropped).toBe(2);
    expect(cache.answers.dropFrom('a', 0)).toBe(1);
  });

  it('an answer read before a reorg is not kept after it', async () => {
    const heads = new Heads();
    heads.heads.set('a', { height: 100, hash: 'x', readAt: NOW });
    const { cache } = cacheWith(heads);
    const plan = cache.plan(route('a', 'ethereum', true), call('eth_getBlockByNumber', ['0x5', false]), false) as KeptPlan;
    heads.reorg('a', 3);
    expect(await cache.keep(plan, '{"number":"0x5"}', () => Promise.resolve(undefined))).toBe(false);
  });

  it('a dev-layer call on a dev node drops what was kept of its blocks and stops trusting its head for a while', async () => {
    const heads = new Heads();
    heads.heads.set('dev', { height: 100, hash: 'x', readAt: NOW });
    const { cache } = cacheWith(heads);
    const dev = route('dev', 'ethereum', true);
    const block = cache.plan(dev, call('eth_getBlockByNumber', ['0x5', false]), false) as KeptPlan;
    const chainId = cache.plan(dev, call('eth_chainId', []), false) as KeptPlan;
    await cache.keep(block, '{"number":"0x5"}', () => Promise.resolve(undefined));
    await cache.keep(chainId, '"0x7a69"', () => Promise.resolve(undefined));
    cache.chainChanging(dev);
    expect([cache.lookup(block), cache.lookup(chainId)]).toEqual([undefined, '"0x7a69"']);
    // Neither the head nor finality is judged by the old head now; an answer asked before the call is not kept.
    expect(cache.plan(dev, call('eth_blockNumber', []), false)).toBeUndefined();
    expect(cache.plan(dev, call('eth_getBlockByNumber', ['0x5', false]), false)).toBeUndefined();
    expect(await cache.keep(block, '{"number":"0x5"}', () => Promise.resolve(undefined))).toBe(false);
    await waitUntil('the head trusted again', () => cache.plan(dev, call('eth_blockNumber', []), false) !== undefined, 5_000, 50);
  });

  it('holds its byte bound, the least recently used out first', () => {
    const counters = counting();
    const store = new AnswerCache(10_000, counters);
    const result = 'x'.repeat(1000);
    for (let i = 0; i < 20; i++) store.set(`k${i}`, { endpoint: 'a', result, height: i });
    expect(store.bytes).toBeLessThanOrEqual(10_000);
    expect(store.entries).toBe(8);
    expect(counters.counts.evicted).toBe(12);
    expect(store.get('k0')).toBeUndefined();
    expect(store.get('k19')?.height).toBe(19);
    // The evicted are out of the height index too: a reorg drops only what is there.
    expect(store.dropFrom('a', 0)).toBe(8);
    store.set('huge', { endpoint: 'a', result: 'x'.repeat(20_000), height: 1 });
    expect(store.get('huge')).toBeUndefined();
    expect(store.bytes).toBe(0);
  });
});

describe('identical calls in flight', () => {
  it('share the leader’s result; a leader without one leaves each to go itself', async () => {
    const inFlight = new InFlight();
    let release!: () => void;
    const led = inFlight.lead('k', async (settle) => {
      await new Promise<void>((resolve) => (release = resolve));
      settle('"0x1"');
      return 'leader';
    });
    const joined = inFlight.joining('k')!;
    release();
    expect(await led).toBe('leader');
    expect(await joined).toBe('"0x1"');
    expect(inFlight.joining('k')).toBeUndefined();
    const failed = inFlight.lead('k', () => Promise.reject(new Error('unreachable')));
    const waiting = inFlight.joining('k')!;
    await expect(failed).rejects.toThrow('unreachable');
    expect(await waiting).toBeUndefined();
  });
});

describe('Ethereum block numbers', () => {
  it('are hex quantities, earliest, or EIP-1898 blockNumber objects', () => {
    expect([ethBlockNumber('0x0'), ethBlockNumber('0x1F'), ethBlockNumber('earliest'), ethBlockNumber({ blockNumber: '0x2' })]).toEqual([0, 31, 0, 2]);
    for (const other of ['latest', 'pending', 'safe', 'finalized', '12', '0x', 12, { blockHash: '0x1' }, { blockNumber: '0x1', requireCanonical: true }])
      expect(ethBlockNumber(other)).toBeUndefined();
  });
});
