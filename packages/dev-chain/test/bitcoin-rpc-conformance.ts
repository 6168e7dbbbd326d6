import type { RpcErrorBody, RpcTarget } from './rpc-client';
import { basicAuth, call, decodeHeader, get, headerHash, post, request } from './rpc-client';

export type { RpcTarget } from './rpc-client';

const HASH = /^[0-9a-f]{64}$/;
const REGTEST_DIFFICULTY = 4.656542373906925e-10;
const UNKNOWN_HASH = '0'.repeat(64);

/** What both a legacy error reply and its status must be. */
async function expectError(reply: Promise<{ status: number; body: unknown }>, status: number, code: number, message?: string | RegExp) {
  const { status: actual, body } = await reply;
  expect({ status: actual, code: (body as { error: RpcErrorBody }).error.code }).toEqual({ status, code });
  expect(body).toMatchObject({ result: null, id: 'test' });
  if (typeof message === 'string') expect((body as { error: RpcErrorBody }).error.message).toBe(message);
  if (message instanceof RegExp) expect((body as { error: RpcErrorBody }).error.message).toMatch(message);
}

/**
 * Bitcoin Core's JSON-RPC and REST behaviour that a client or driver relies on, as Litecoin Core
 * 0.21 shows it: run against the real daemon and against the dev chain alike. Only legacy
 * (JSON-RPC 1.0) requests: 0.21 predates Core 28's JSON-RPC 2.0. `start` gives a fresh regtest
 * node; the suite mines 3 blocks on it first.
 */
export function describeBitcoinRpc(name: string, start: () => Promise<RpcTarget>): void {
  describe(`Bitcoin RPC conformance: ${name}`, () => {
    let node: RpcTarget;
    const hashAt = (height: number) => call<string>(node, 'getblockhash', [height]);

    beforeAll(async () => {
      node = await start();
      await node.mine(3);
    }, 120_000);

    afterAll(async () => {
      await node?.stop();
    }, 180_000);

    describe('chain queries', () => {
      it('agrees on the tip between getblockcount, getbestblockhash and getblockhash', async () => {
        const count = await call<number>(node, 'getblockcount');
        expect(count).toBeGreaterThanOrEqual(3);
        expect(await call(node, 'getbestblockhash')).toBe(await hashAt(count));
        expect(await hashAt(0)).toMatch(HASH);
        expect(new Set([await hashAt(0), await hashAt(1), await hashAt(2)]).size).toBe(3);
      });

      it('describes a block below the tip with every field of getblock verbosity 1', async () => {
        const count = await call<number>(node, 'getblockcount');
        const block = await call<Record<string, unknown>>(node, 'getblock', [await hashAt(1), true]);
        expect(block).toMatchObject({
          hash: await hashAt(1),
          confirmations: count,
          height: 1,
          bits: '207fffff',
          difficulty: REGTEST_DIFFICULTY,
          chainwork: '0'.repeat(63) + '4',
          nTx: 1,
          previousblockhash: await hashAt(0),
          nextblockhash: await hashAt(2),
        });
        for (const field of ['size', 'strippedsize', 'weight', 'version', 'time', 'mediantime', 'nonce']) expect(typeof block[field]).toBe('number');
        expect(block.versionHex).toBe((block.version as number).toString(16).padStart(8, '0'));
        expect(block.tx).toEqual([expect.stringMatching(HASH)]);
        // One transaction: the merkle root is its txid.
        expect(block.merkleroot).toBe((block.tx as string[])[0]);
        expect(block.mediantime as number).toBeLessThanOrEqual(block.time as number);
        expect(await call(node, 'getblock', [await hashAt(1)])).toEqual(block);
        expect(await call(node, 'getblock', [await hashAt(1), 1])).toEqual(block);
      });

      it('serializes a block for verbosity 0 with a header that hashes to the block hash', async () => {
        const hash = await hashAt(2);
        const hex = await call<string>(node, 'getblock', [hash, false]);
        expect(await call(node, 'getblock', [hash, 0])).toBe(hex);
        expect(hex).toMatch(/^([0-9a-f]{2})+$/);
        expect(headerHash(hex)).toBe(hash);
        const verbose = await call<Record<string, unknown>>(node, 'getblock', [hash, 1]);
        expect(decodeHeader(hex)).toEqual({
          version: verbose.version,
          previousblockhash: verbose.previousblockhash,
          merkleroot: verbose.merkleroot,
          time: verbose.time,
          bits: verbose.bits,
          nonce: verbose.nonce,
        });
        expect(hex.length / 2).toBe(verbose.size);
      });

      it('lists transactions as objects for verbosity 2', async () => {
        const hash = await hashAt(1);
        const txids = (await call<{ tx: string[] }>(node, 'getblock', [hash, 1])).tx;
        const { tx } = await call<{ tx: Record<string, unknown>[] }>(node, 'getblock', [hash, 2]);
        expect(tx.map((t) => t.txid)).toEqual(txids);
        expect(tx[0]).toMatchObject({ txid: txids[0], hash: expect.stringMatching(HASH), size: expect.any(Number), hex: expect.any(String) });
        expect(tx[0]?.vin).toEqual([expect.objectContaining({ coinbase: expect.stringMatching(/^51/), sequence: 4294967295 })]);
        expect((tx[0]?.vout as { value: number; n: number }[])[0]).toMatchObject({ value: 50, n: 0 });
      });

      it('leaves out previousblockhash on the genesis block and nextblockhash on the tip', async () => {
        const genesis = await call<Record<string, unknown>>(node, 'getblock', [await hashAt(0)]);
        expect(genesis.height).toBe(0);
        expect(genesis).not.toHaveProperty('previousblockhash');
        expect(genesis.nextblockhash).toBe(await hashAt(1));
        const tip = await call<Record<string, unknown>>(node, 'getblock', [await call(node, 'getbestblockhash')]);
        expect(tip).not.toHaveProperty('nextblockhash');
        expect(tip.confirmations).toBe(1);
      });

      it('answers getblockheader as an object and as 80 bytes of hex hashing to the block hash', async () => {
        const hash = await hashAt(1);
        const header = await call<Record<string, unknown>>(node, 'getblockheader', [hash]);
        const block = await call<Record<string, unknown>>(node, 'getblock', [hash]);
        const { tx: _tx, size: _size, strippedsize: _stripped, weight: _weight, ...blockFields } = block;
        expect(header).toEqual(blockFields);
        expect(await call(node, 'getblockheader', [hash, true])).toEqual(header);
        const hex = await call<string>(node, 'getblockheader', [hash, false]);
        expect(hex).toMatch(/^[0-9a-f]{160}$/);
        expect(headerHash(hex)).toBe(hash);
        expect((await call<string>(node, 'getblock', [hash, 0])).slice(0, 160)).toBe(hex);
      });

      it('reports the difficulty and the chain state', async () => {
        expect(await call(node, 'getdifficulty')).toBe(REGTEST_DIFFICULTY);
        const count = await call<number>(node, 'getblockcount');
        const info = await call<Record<string, unknown>>(node, 'getblockchaininfo');
        expect(info).toMatchObject({
          chain: 'regtest',
          blocks: count,
          headers: count,
          bestblockhash: await call(node, 'getbestblockhash'),
          difficulty: REGTEST_DIFFICULTY,
          mediantime: expect.any(Number),
          verificationprogress: 1,
          initialblockdownload: false,
          chainwork: (2 * (count + 1)).toString(16).padStart(64, '0'),
          pruned: false,
          warnings: '',
        });
        expect(info.size_on_disk as number).toBeGreaterThan(0);
        expect(await call(node, 'getchaintips')).toEqual([{ height: count, hash: info.bestblockhash, branchlen: 0, status: 'active' }]);
      });

      it('answers the node, mempool and control queries', async () => {
        expect(await call(node, 'getnetworkinfo')).toMatchObject({
          version: expect.any(Number),
          subversion: expect.stringMatching(/^\/\w+:[\d.]+\/$/),
          protocolversion: expect.any(Number),
          connections: 0,
          networks: expect.any(Array),
          relayfee: expect.any(Number),
          localaddresses: [],
          warnings: expect.any(String),
        });
        expect(await call(node, 'getmempoolinfo')).toMatchObject({ loaded: true, size: 0, bytes: 0 });
        expect(await call(node, 'getrawmempool')).toEqual([]);
        expect(await call(node, 'getrawmempool', [true])).toEqual({});
        expect(await call(node, 'uptime')).toEqual(expect.any(Number));
        expect(await call(node, 'help')).toMatch(/== Blockchain ==\n(.+\n)*getblockhash height\n/);
        expect(await call(node, 'help', ['getblockcount'])).toMatch(/^getblockcount\n\n/);
        expect(await call(node, 'help', ['nosuch'])).toBe('help: unknown command: nosuch');
      });

      it('mines with generatetodescriptor, returning the new hashes', async () => {
        const before = await call<number>(node, 'getblockcount');
        const hashes = await call<string[]>(node, 'generatetodescriptor', [2, 'raw(51)']);
        expect(hashes).toEqual([await hashAt(before + 1), await hashAt(before + 2)]);
        expect(await call(node, 'generatetodescriptor', [0, 'raw(51)'])).toEqual([]);
        await expectError(request(node, 'generatetodescriptor', [1, '']), 500, -5, ' is not a valid descriptor function');
      });
    });

    describe('errors', () => {
      it('answers an unknown method with HTTP 404 and -32601', async () => {
        await expectError(request(node, 'nosuchmethod'), 404, -32601, 'Method not found');
      });

      it('rejects bad parameters with Core codes and wording', async () => {
        const tip = await call<number>(node, 'getblockcount');
        const hash = await hashAt(1);
        await expectError(request(node, 'getblockhash', [tip + 1]), 500, -8, 'Block height out of range');
        await expectError(request(node, 'getblockhash', [-1]), 500, -8, 'Block height out of range');
        await expectError(request(node, 'getblockhash', ['1']), 500, -1, 'JSON value is not an integer as expected');
        await expectError(request(node, 'getblockhash', [1.5]), 500, -1, 'JSON integer out of range');
        await expectError(request(node, 'getblockhash', []), 500, -1, /^getblockhash height\n\n/);
        await expectError(request(node, 'getblockhash', [1, 2]), 500, -1, /^getblockhash height\n\n/);
        await expectError(request(node, 'getblockcount', [1]), 500, -1, /^getblockcount\n\n/);
        await expectError(request(node, 'getblock', ['x']), 500, -8, "blockhash must be of length 64 (not 1, for 'x')");
        await expectError(request(node, 'getblock', ['zz' + '0'.repeat(62)]), 500, -8, `blockhash must be hexadecimal string (not 'zz${'0'.repeat(62)}')`);
        await expectError(request(node, 'getblock', [UNKNOWN_HASH]), 500, -5, 'Block not found');
        await expectError(request(node, 'getblock', [1]), 500, -1, 'JSON value is not a string as expected');
        await expectError(request(node, 'getblock', [hash, 'x']), 500, -1, 'JSON value is not a boolean as expected');
        await expectError(request(node, 'getblockheader', ['x']), 500, -8, "hash must be of length 64 (not 1, for 'x')");
        await expectError(request(node, 'getblockheader', [UNKNOWN_HASH]), 500, -5, 'Block not found');
        await expectError(request(node, 'getblockheader', [hash, 0]), 500, -1, 'JSON value is not a boolean as expected');
        await expectError(request(node, 'generatetodescriptor', ['x', 'raw(51)']), 500, -1, 'JSON value is not an integer as expected');
      });

      it('takes named parameters and refuses unknown names', async () => {
        expect(await call(node, 'getblockhash', { height: 1 })).toBe(await hashAt(1));
        expect(await call(node, 'getblock', { blockhash: await hashAt(1), verbosity: 0 })).toMatch(/^[0-9a-f]+$/);
        await expectError(request(node, 'getblockhash', { heigth: 1 }), 500, -8, 'Unknown named parameter heigth');
      });

      it('answers a body that is not JSON with HTTP 500 and -32700', async () => {
        const reply = await post(node, 'this is not json');
        expect(reply.status).toBe(500);
        expect(reply.body).toEqual({ result: null, error: { code: -32700, message: 'Parse error' }, id: null });
        const scalar = await post(node, '"a string"');
        expect(scalar.status).toBe(500);
        expect(scalar.body).toEqual({ result: null, error: { code: -32700, message: 'Top-level object parse error' }, id: null });
      });

      it('refuses malformed requests with HTTP 400 and -32600', async () => {
        const missing = await post(node, { id: 1, params: [] });
        expect([missing.status, missing.body]).toEqual([400, { result: null, error: { code: -32600, message: 'Missing method' }, id: 1 }]);
        const params = await post(node, { id: 1, method: 'getblockcount', params: 'x' });
        expect([params.status, (params.body as { error: RpcErrorBody }).error]).toEqual([400, { code: -32600, message: 'Params must be an array or object' }]);
      });

      it('refuses wallet methods as a node without a wallet does, also under /wallet/', async () => {
        for (const method of ['getbalance', 'getnewaddress', 'sendtoaddress', 'listunspent', 'getwalletinfo']) {
          await expectError(request(node, method), 404, -32601, 'Method not found');
        }
        await expectError(request(node, 'getbalance', [], '/wallet/default'), 404, -32601, 'Method not found');
        expect((await request(node, 'getblockcount', [], '/wallet/default')).status).toBe(200);
      });
    });

    describe('protocol', () => {
      it('answers a legacy request with result, error and id (null when absent)', async () => {
        const count = await call<number>(node, 'getblockcount');
        const reply = await post(node, { method: 'getblockcount' });
        expect([reply.status, reply.body]).toEqual([200, { result: count, error: null, id: null }]);
        expect(reply.headers.get('content-type')).toBe('application/json');
        const versioned = await post(node, { jsonrpc: '1.0', id: 7, method: 'getblockcount', params: [] });
        expect(versioned.body).toEqual({ result: count, error: null, id: 7 });
      });

      it('answers a batch with one reply per request, in order, with HTTP 200', async () => {
        const count = await call<number>(node, 'getblockcount');
        const reply = await post(node, [
          { id: 1, method: 'getblockcount', params: [] },
          { id: 2, method: 'nosuchmethod', params: [] },
          { id: 3, method: 'getblockhash', params: [count + 1] },
          42,
        ]);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual([
          { result: count, error: null, id: 1 },
          { result: null, error: { code: -32601, message: 'Method not found' }, id: 2 },
          { result: null, error: { code: -8, message: 'Block height out of range' }, id: 3 },
          { result: null, error: { code: -32600, message: 'Invalid Request object' }, id: null },
        ]);
        const empty = await post(node, []);
        expect([empty.status, empty.body]).toEqual([200, []]);
      });

      it('echoes ids as written, numbers JSON.parse would change included, in single and batch replies', async () => {
        for (const id of ['12345678901234567890', '9007199254740993', '1e400', '-0', '1.50', `1${'0'.repeat(400)}`]) {
          const single = await post(node, `{"jsonrpc":"1.0","id":${id},"method":"getblockcount","params":[]}`);
          expect([id, single.status, /"id":([^}]*)\}/.exec(single.text)?.[1]]).toEqual([id, 200, id]);
          const batch = await post(node, `[{"id":${id},"method":"getblockcount"},{"id":${id},"method":"nosuchmethod"}]`);
          expect([id, [...batch.text.matchAll(/"id":([^}]*)\}/g)].map((match) => match[1])]).toEqual([id, [id, id]]);
        }
      });

      it('demands HTTP Basic credentials with an empty 401', async () => {
        for (const authorization of [null, basicAuth(node.user, `${node.password}x`), basicAuth(`${node.user}x`, node.password), 'Bearer x']) {
          const reply = await post(node, { method: 'getblockcount' }, { authorization });
          expect([reply.status, reply.text]).toEqual([401, '']);
          expect(reply.headers.get('www-authenticate')).toBe('Basic realm="jsonrpc"');
        }
      });

      it('answers only POST on the RPC endpoint', async () => {
        const reply = await get(node, '/');
        expect([reply.status, reply.text]).toEqual([405, 'JSONRPC server handles only POST requests']);
      });
    });

    describe('REST', () => {
      const expectText = (reply: { status: number; text: string }, status: number, text: string) =>
        expect([reply.status, reply.text]).toEqual([status, `${text}\r\n`]);

      it('serves chaininfo.json like getblockchaininfo', async () => {
        const reply = await get(node, '/rest/chaininfo.json');
        expect(reply.status).toBe(200);
        expect(reply.headers.get('content-type')).toBe('application/json');
        expect(reply.body).toMatchObject({ chain: 'regtest', blocks: await call(node, 'getblockcount'), bestblockhash: await call(node, 'getbestblockhash') });
        expectText(await get(node, '/rest/chaininfo.hex'), 404, 'output format not found (available: json)');
      });

      it('serves a block as json (with and without transaction details), hex and bin', async () => {
        const hash = await hashAt(1);
        const json = await get(node, `/rest/block/${hash}.json`);
        expect(json.status).toBe(200);
        expect(json.body).toEqual(await call(node, 'getblock', [hash, 2]));
        expect((await get(node, `/rest/block/notxdetails/${hash}.json`)).body).toEqual(await call(node, 'getblock', [hash, 1]));
        const hex = await get(node, `/rest/block/${hash}.hex`);
        expect([hex.status, hex.text]).toEqual([200, `${await call<string>(node, 'getblock', [hash, 0])}\n`]);
        const bin = await get(node, `/rest/block/${hash}.bin`);
        expect(bin.headers.get('content-type')).toBe('application/octet-stream');
        expect(bin.bytes.toString('hex')).toBe(hex.text.trim());
      });

      it('refuses bad block requests with Core statuses and texts', async () => {
        const hash = await hashAt(1);
        expectText(await get(node, '/rest/block/x.json'), 400, 'Invalid hash: x');
        expectText(await get(node, `/rest/block/${UNKNOWN_HASH}.json`), 404, `${UNKNOWN_HASH} not found`);
        expectText(await get(node, `/rest/block/${hash}`), 404, 'output format not found (available: .bin, .hex, .json)');
      });

      it('serves headers from a hash on, and refuses bad counts and hashes', async () => {
        const count = await call<number>(node, 'getblockcount');
        const reply = await get(node, `/rest/headers/2/${await hashAt(1)}.json`);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual([await call(node, 'getblockheader', [await hashAt(1)]), await call(node, 'getblockheader', [await hashAt(2)])]);
        const tail = await get(node, `/rest/headers/5/${await hashAt(count)}.hex`);
        expect(tail.text).toBe(`${await call<string>(node, 'getblockheader', [await hashAt(count), false])}\n`);
        expect((await get(node, `/rest/headers/1/${UNKNOWN_HASH}.json`)).body).toEqual([]);
        expectText(await get(node, `/rest/headers/0/${await hashAt(1)}.json`), 400, 'Header count out of range: 0');
        expectText(await get(node, `/rest/headers/2001/${await hashAt(1)}.json`), 400, 'Header count out of range: 2001');
        expectText(await get(node, '/rest/headers/1/x.json'), 400, 'Invalid hash: x');
      });

      it('serves blockhashbyheight and refuses bad heights', async () => {
        const count = await call<number>(node, 'getblockcount');
        const reply = await get(node, '/rest/blockhashbyheight/1.json');
        expect([reply.status, reply.body]).toEqual([200, { blockhash: await hashAt(1) }]);
        expect((await get(node, '/rest/blockhashbyheight/1.hex')).text).toBe(`${await hashAt(1)}\n`);
        expectText(await get(node, `/rest/blockhashbyheight/${count + 1}.json`), 404, 'Block height out of range');
        expectText(await get(node, '/rest/blockhashbyheight/-1.json'), 400, 'Invalid height: -1');
        expectText(await get(node, '/rest/blockhashbyheight/x.json'), 400, 'Invalid height: x');
      });

      it('answers an unknown REST path with an empty 404', async () => {
        const reply = await get(node, '/rest/nosuch.json');
        expect([reply.status, reply.text]).toEqual([404, '']);
      });
    });
  });
}
