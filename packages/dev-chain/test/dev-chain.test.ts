import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DevChain, DevChainOptions } from '../src';
import { makeRpcAuth, startDevChain } from '../src';
import { MAX_BODY_BYTES } from '../src/server';
import type { RpcTarget } from './rpc-client';
import { call, get, post } from './rpc-client';

// What the dev chain does beyond the behaviour shared with litecoind 0.21 (see the conformance
// suite): Core 28's JSON-RPC 2.0, timed mining, persistence, stop, cookies, newer REST forms.

const datadirs: string[] = [];
const running: DevChain[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
  for (const dir of datadirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newDatadir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dev-chain-'));
  datadirs.push(dir);
  return dir;
}

async function start(options: Partial<DevChainOptions> = {}): Promise<{ node: DevChain; target: RpcTarget; lines: string[] }> {
  const lines: string[] = [];
  const node = await startDevChain({
    chain: 'btc',
    datadir: options.datadir ?? newDatadir(),
    host: '127.0.0.1',
    port: 0,
    rpcauth: [makeRpcAuth('alice', 'secret')],
    rest: true,
    blockIntervalSeconds: 0,
    logger: (line) => lines.push(line),
    ...options,
  });
  running.push(node);
  const target: RpcTarget = { url: node.url, user: 'alice', password: 'secret', mine: async () => undefined, stop: () => node.stop() };
  return { node, target, lines };
}

describe('JSON-RPC 2.0, as Bitcoin Core 28 answers it', () => {
  it('answers with jsonrpc "2.0" and either result or error, always HTTP 200', async () => {
    const { target } = await start();
    const ok = await post(target, { jsonrpc: '2.0', id: 1, method: 'getblockcount' });
    expect([ok.status, ok.body]).toEqual([200, { jsonrpc: '2.0', result: 0, id: 1 }]);
    const missing = await post(target, { jsonrpc: '2.0', id: 2, method: 'nosuchmethod' });
    expect([missing.status, missing.body]).toEqual([200, { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 2 }]);
    const bad = await post(target, { jsonrpc: '2.0', id: 3, method: 'getblockhash', params: [5] });
    expect([bad.status, bad.body]).toEqual([200, { jsonrpc: '2.0', error: { code: -8, message: 'Block height out of range' }, id: 3 }]);
  });

  it('runs a notification (no id) and answers 204 with no body', async () => {
    const { target } = await start();
    const reply = await post(target, { jsonrpc: '2.0', method: 'generatetodescriptor', params: [2, 'raw(51)'] });
    expect([reply.status, reply.text]).toEqual([204, '']);
    expect(await call(target, 'getblockcount')).toBe(2);
  });

  it('leaves notifications out of a batch, and answers an all-notification batch with 204', async () => {
    const { target } = await start();
    const mixed = await post(target, [
      { jsonrpc: '2.0', method: 'getblockcount' },
      { jsonrpc: '2.0', id: 'a', method: 'getblockcount' },
      { id: 'b', method: 'getblockcount' },
      { jsonrpc: '2.0', id: 'c', method: 'nosuchmethod' },
    ]);
    expect([mixed.status, mixed.body]).toEqual([
      200,
      [
        { jsonrpc: '2.0', result: 0, id: 'a' },
        { result: 0, error: null, id: 'b' },
        { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 'c' },
      ],
    ]);
    const silent = await post(target, [{ jsonrpc: '2.0', method: 'getblockcount' }]);
    expect([silent.status, silent.text]).toEqual([204, '']);
  });

  it('refuses other versions and a malformed 2.0 request as Core 28 does', async () => {
    const { target } = await start();
    const version = await post(target, { jsonrpc: '3.0', id: 1, method: 'getblockcount' });
    expect([version.status, version.body]).toEqual([400, { result: null, error: { code: -32600, message: 'JSON-RPC version not supported' }, id: 1 }]);
    const missing = await post(target, { jsonrpc: '2.0', id: 1 });
    expect([missing.status, missing.body]).toEqual([400, { jsonrpc: '2.0', error: { code: -32600, message: 'Missing method' }, id: 1 }]);
  });
});

describe('mining', () => {
  it('mines on its own every -blockinterval seconds', async () => {
    const { target, lines } = await start({ blockIntervalSeconds: 0.1 });
    for (const deadline = Date.now() + 10_000; (await call<number>(target, 'getblockcount')) < 3; await sleep(50)) {
      if (Date.now() > deadline) throw new Error('no blocks were mined within 10 s');
    }
    expect(lines).toContainEqual(expect.stringMatching(/^UpdateTip: new best=[0-9a-f]{64} height=3$/));
  });

  it('mines to any address, pays OP_TRUE the regtest subsidy, and keeps block times rising', async () => {
    const { target } = await start();
    const hashes = await call<string[]>(target, 'generatetoaddress', [3, 'bcrt1qanything']);
    const blocks = await Promise.all(
      hashes.map((hash) =>
        call<{ time: number; mediantime: number; tx: { vout: { value: number; scriptPubKey: { hex: string } }[] }[] }>(target, 'getblock', [hash, 2]),
      ),
    );
    expect(blocks.map((block) => block.tx[0]?.vout[0])).toEqual(
      Array(3).fill(expect.objectContaining({ value: 50, scriptPubKey: expect.objectContaining({ hex: '51' }) })),
    );
    expect(blocks[1]!.time).toBeGreaterThan(blocks[0]!.mediantime);
    const empty = await post(target, { id: 1, method: 'generatetoaddress', params: [1, ''] });
    expect([empty.status, empty.body]).toMatchObject([500, { error: { code: -5, message: 'Error: Invalid address' } }]);
  });

  it('halves the subsidy every 150 blocks, as regtest does', async () => {
    const { target } = await start();
    const [hash] = (await call<string[]>(target, 'generatetodescriptor', [150, 'raw(51)'])).slice(-1);
    const block = await call<{ height: number; tx: { vout: { value: number }[] }[] }>(target, 'getblock', [hash, 2]);
    expect([block.height, block.tx[0]?.vout[0]?.value]).toEqual([150, 25]);
  });
});

describe('persistence', () => {
  it('keeps the chain across a restart, appending one line per block', async () => {
    const datadir = newDatadir();
    const first = await start({ datadir });
    await call(first.target, 'generatetodescriptor', [4, 'raw(51)']);
    const best = await call<string>(first.target, 'getbestblockhash');
    await first.node.stop();
    const lines = readFileSync(join(datadir, 'regtest', 'blocks.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { height: number }).height)).toEqual([0, 1, 2, 3, 4]);

    const second = await start({ datadir });
    expect(await call(second.target, 'getblockcount')).toBe(4);
    expect(await call(second.target, 'getbestblockhash')).toBe(best);
    expect(
      (await call<{ previousblockhash: string }>(second.target, 'getblock', [(await call<string[]>(second.target, 'generatetodescriptor', [1, 'raw(51)']))[0]]))
        .previousblockhash,
    ).toBe(best);
  });

  it('drops a truncated last line and goes on appending after the last whole one', async () => {
    const datadir = newDatadir();
    const first = await start({ datadir });
    await call(first.target, 'generatetodescriptor', [2, 'raw(51)']);
    await first.node.stop();
    const file = join(datadir, 'regtest', 'blocks.jsonl');
    appendFileSync(file, '{"height":3,"hash":"00ab');

    const second = await start({ datadir });
    expect(second.lines).toContainEqual(expect.stringMatching(/^Dropped the partial last line of /));
    expect(await call(second.target, 'getblockcount')).toBe(2);
    await call(second.target, 'generatetodescriptor', [1, 'raw(51)']);
    await second.node.stop();
    const third = await start({ datadir });
    expect(await call(third.target, 'getblockcount')).toBe(3);
  });

  it('refuses a datadir holding another chain', async () => {
    const datadir = newDatadir();
    const { node } = await start({ datadir, chain: 'btc' });
    await node.stop();
    await expect(start({ datadir, chain: 'ltc' })).rejects.toThrow('the stored chain does not start at the ltc regtest genesis block');
  });
});

describe('the node', () => {
  it('stops on the stop RPC like bitcoind, closing its port', async () => {
    const { node, target, lines } = await start();
    const reply = await post(target, { id: 1, method: 'stop' });
    expect(reply.body).toEqual({ result: 'Cloud Dev Chain stopping', error: null, id: 1 });
    await node.stopped;
    expect(lines.slice(-1)).toEqual(['Shutdown: done']);
    await expect(fetch(node.url)).rejects.toThrow();
  });

  it('uses cookie authentication without -rpcauth, removing the cookie on shutdown', async () => {
    const datadir = newDatadir();
    const { node, target } = await start({ datadir, rpcauth: [] });
    const cookie = join(datadir, 'regtest', '.cookie');
    const [user, password] = readFileSync(cookie, 'utf8').split(':') as [string, string];
    expect(user).toBe('__cookie__');
    expect(await call({ ...target, user, password }, 'getblockcount')).toBe(0);
    expect((await post(target, { method: 'getblockcount' })).status).toBe(401);
    await node.stop();
    expect(() => readFileSync(cookie)).toThrow();
  });

  it('accepts any of several -rpcauth users and refuses a malformed entry', async () => {
    const { target } = await start({ rpcauth: [makeRpcAuth('alice', 'secret'), makeRpcAuth('bob', 'other')] });
    expect(await call({ ...target, user: 'bob', password: 'other' }, 'getblockcount')).toBe(0);
    await expect(start({ rpcauth: ['alice:nohash'] })).rejects.toThrow('Invalid -rpcauth argument');
  });

  it('refuses a body over 32 MiB with 413 and goes on serving', async () => {
    const { target } = await start();
    const reply = await post(target, `{"method":"getblockcount","params":["${'x'.repeat(MAX_BODY_BYTES)}"]}`);
    expect(reply.status).toBe(413);
    expect(await call(target, 'getblockcount')).toBe(0);
  });

  it('has no REST without -rest, like bitcoind', async () => {
    const { target } = await start({ rest: false });
    const reply = await get(target, '/rest/chaininfo.json');
    expect([reply.status, reply.text]).toEqual([404, '']);
  });

  it('serves REST headers in the newer ?count= form too', async () => {
    const { target } = await start();
    const hashes = await call<string[]>(target, 'generatetodescriptor', [7, 'raw(51)']);
    const byDefault = await get(target, `/rest/headers/${hashes[0]}.json`);
    expect((byDefault.body as { hash: string }[]).map((header) => header.hash)).toEqual(hashes.slice(0, 5));
    const two = await get(target, `/rest/headers/${hashes[0]}.json?count=2`);
    expect((two.body as { hash: string }[]).map((header) => header.hash)).toEqual(hashes.slice(0, 2));
    const bad = await get(target, `/rest/headers/${hashes[0]}.json?count=0`);
    expect([bad.status, bad.text]).toEqual([400, 'Header count is invalid or out of acceptable range (1-2000): 0\r\n']);
  });
});
