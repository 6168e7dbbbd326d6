import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { NodeProxy } from '../../src';
import { DEFAULT_FILTER_DIR } from '../../src/config';
import { callProxy, type ProxyCall, platformRefusal as refusal } from '../client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

const run = promisify(execFile);
// The node runs a dev chain: the dev layer's methods (generatetoaddress, ...) pass there (test/on-one-platform/dev-layer.ts).
const rules = JSON.parse(readFileSync(path.join(DEFAULT_FILTER_DIR, 'bitcoin.json'), 'utf8')) as {
  refused: { methods: string[] }[];
  dev: { methods: string[] }[];
};
const devLayer = new Set(rules.dev.flatMap((group) => group.methods));
const blockedMethods = rules.refused
  .flatMap((group) => group.methods)
  .map((method) => method.replace(/\*$/, 'x'))
  .filter((method) => !devLayer.has(method));

describe('the proxy in front of a Litecoin Core node', () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  let user: TestUser;
  let node: CreatedNode;
  let credentials: string;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    proxy = await platform.startProxy({
      PROXY_RATE_PER_SECOND: '100000',
      PROXY_RATE_BURST: '100000',
      PROXY_BODY_LIMIT_BYTES: '65536',
      PROXY_MAX_BATCH: '200',
      PROXY_UPSTREAM_TIMEOUT_MS: '1500',
    });
    user = await platform.user();
    node = await platform.createNode(user, { image: 'ltc' });
    credentials = `${node.nodeUser}:${node.nodePass}`;
  }, 120_000);
  afterAll(() => platform?.close());

  const rpc = (body: unknown, call: Partial<ProxyCall> = {}) => callProxy(proxy, 'ltc', { host: node.address, auth: credentials, body, ...call });
  const result = async (method: string, params: unknown[] = []) => {
    const answer = await rpc({ jsonrpc: '1.0', id: 'test', method, params });
    expect([method, answer.status, (answer.body as { error: unknown }).error]).toEqual([method, 200, null]);
    return (answer.body as { result: unknown }).result;
  };

  it('answers getblock with the fields of the spec, and getdifficulty with a number', async () => {
    await waitUntil('two blocks', async () => ((await result('getblockcount')) as number) >= 2, 30_000, 200);
    const block = (await result('getblock', [await result('getblockhash', [1]), true])) as Record<string, unknown>;
    for (const field of [
      'hash',
      'confirmations',
      'size',
      'height',
      'version',
      'versionHex',
      'merkleroot',
      'tx',
      'time',
      'mediantime',
      'nonce',
      'bits',
      'difficulty',
      'chainwork',
      'nTx',
      'nextblockhash',
    ]) {
      expect([field, field in block]).toEqual([field, true]);
    }
    expect(block).toMatchObject({ height: 1, tx: [expect.stringMatching(/^[0-9a-f]{64}$/)] });
    expect(typeof (await result('getdifficulty'))).toBe('number');
  });

  it('refuses every method of the bitcoin rules, alone and in upper case, and the node keeps running', async () => {
    for (const method of blockedMethods) {
      for (const name of [method, method.toUpperCase()]) {
        const answer = await rpc({ jsonrpc: '1.0', id: name, method: name, params: [] });
        expect([name, answer.status, answer.body]).toEqual([name, 200, { result: null, id: name, error: refusal(name) }]);
      }
    }
    expect(typeof (await result('getblockcount'))).toBe('number');
  });

  it('answers a batch in order with the refusals in place and the allowed calls answered by the node', async () => {
    const batch = [
      { id: 'first', method: 'getblockcount' },
      ...blockedMethods.map((method, index) => ({ id: index, method })),
      { id: 'last', method: 'getbestblockhash' },
    ];
    const answer = await rpc(batch);
    expect(answer.status).toBe(200);
    const answers = answer.body as { id: unknown; result: unknown; error: { code: number } | null }[];
    expect(answers.map((each) => each.id)).toEqual(batch.map((call) => call.id));
    expect(answers[0]).toMatchObject({ result: expect.any(Number), error: null });
    expect(answers.at(-1)).toMatchObject({ result: expect.stringMatching(/^[0-9a-f]{64}$/), error: null });
    expect(answers.slice(1, -1).every((each) => each.error?.code === -32601)).toBe(true);
  });

  it('checks what the node would see: duplicate keys, odd whitespace and escapes cannot smuggle a method', async () => {
    for (const body of [
      '{"id":1,"method":"getblockcount","method":"stop"}',
      '{ "id" : 1 ,\n\t"method" :\r\n "stop" }',
      '{"id":1,"method":"\\u0073top"}',
      '[{"id":1,"method":"getblockcount","method":"StOp"}]',
    ]) {
      const answer = await rpc(body);
      const refusal = [answer.body].flat()[0] as { error: { code: number } };
      expect([body, refusal.error.code]).toEqual([body, -32601]);
    }
    expect(typeof (await result('getblockcount'))).toBe('number');
  });

  it('answers malformed requests in JSON-RPC form: not JSON, no method, an empty batch, a batch or body over the limit', async () => {
    expect(await rpc('{"method":')).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    expect(await rpc({ id: 1, method: 42 })).toMatchObject({ status: 400, body: { id: 1, error: { code: -32600 } } });
    expect(await rpc([])).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
    const long = Array.from({ length: 201 }, (_, id) => ({ id, method: 'getblockcount' }));
    expect(await rpc(long)).toMatchObject({ status: 413, body: { error: { code: -32600, message: 'batch of 201 calls is over the limit of 200' } } });
    const huge = await rpc({ id: 1, method: 'getblock', params: ['x'.repeat(70_000)] });
    expect(huge).toMatchObject({ status: 413, body: { code: 'PayloadTooLarge' } });
  });

  it('keeps numbers as written: Litecoin Core echoes the id it read, and the proxy’s own answers carry it too', async () => {
    const refusedStop = JSON.stringify(refusal('stop'));
    for (const id of ['12345678901234567890', '9007199254740993', '1e400', '-0', '1.50']) {
      const straight = await rpc(`{"jsonrpc":"1.0","id":${id},"method":"getblockcount","params":[]}`);
      expect([id, straight.status, /^\{"result":\d+,"error":null,"id":(.*)\}$/.exec(straight.text.trim())?.[1]]).toEqual([id, 200, id]);
      expect((await rpc(`{"id":${id},"method":"stop"}`)).text).toBe(`{"result":null,"error":${refusedStop},"id":${id}}`);
      const merged = await rpc(`[{"id":${id},"method":"getblockcount"},{"id":"${id}","method":"stop"}]`);
      expect([id, /^\[\{"result":\d+,"error":null,"id":([^}]*)\},(.*)\]$/.exec(merged.text)?.slice(1)]).toEqual([
        id,
        [id, `{"result":null,"error":${refusedStop},"id":"${id}"}`],
      ]);
    }
    const deep = await rpc(`{"id":1,"method":"getblockcount","params":${'['.repeat(4_000)}${']'.repeat(4_000)}}`);
    expect(deep).toMatchObject({
      status: 400,
      body: { result: null, id: null, error: { code: -32600, message: 'invalid request: the body is nested deeper than 64 levels' } },
    });
  });

  it('serves litecoin-cli through the proxy, and refuses its stop', async () => {
    const cli = (...args: string[]) =>
      run('litecoin-cli', ['-rpcconnect=127.0.0.1', `-rpcport=${proxy.ports.ltc}`, `-rpcuser=${node.nodeUser}`, `-rpcpassword=${node.nodePass}`, ...args]);
    const { stdout } = await cli('getblockcount');
    expect(Number(stdout.trim())).toBeGreaterThanOrEqual(2);
    // -getinfo batches getnetworkinfo and getblockchaininfo with wallet calls it may go without.
    const info = JSON.parse((await cli('-getinfo')).stdout) as { version: number; blocks: number; chain: string };
    expect(info).toMatchObject({ version: expect.any(Number), blocks: expect.any(Number), chain: 'regtest' });
    expect(info.blocks).toBeGreaterThanOrEqual(2);
    const refused = await cli('stop').then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    // litecoin-cli exits with the error code's absolute value, truncated to a byte: 32601 % 256.
    expect(refused).toMatchObject({ code: 32601 % 256, stderr: expect.stringContaining('method "stop" is not allowed on this hosted node') });
    expect(Number((await cli('getblockcount')).stdout.trim())).toBeGreaterThanOrEqual(2);
  });

  it('passes REST GETs through, and refuses other REST methods and the wallet endpoints', async () => {
    const info = await rpc(undefined, { path: '/rest/chaininfo.json' });
    expect(info).toMatchObject({ status: 200, body: { chain: 'regtest', blocks: expect.any(Number) } });
    expect(await rpc('{}', { path: '/rest/chaininfo.json', method: 'POST' })).toMatchObject({
      status: 405,
      body: { code: 'MethodNotAllowed' },
      headers: { allow: 'GET' },
    });
    expect(await rpc({ method: 'getbalance' }, { path: '/wallet/main' })).toMatchObject({ status: 403, body: { code: 'Forbidden' } });
    expect(await rpc(undefined, { path: '/' })).toMatchObject({ status: 405, body: { code: 'MethodNotAllowed' } });
    expect(await rpc(undefined, { path: '/other' })).toMatchObject({ status: 404, body: { code: 'NotFound' } });
  });

  it('finds no node at an unknown address, nor on another chain’s port', async () => {
    expect(await rpc({ method: 'getblockcount' }, { host: 'node-00000000-0000-0000-0000-000000000000.nodes.localhost' })).toMatchObject({
      status: 404,
      body: { code: 'NotFound' },
    });
    const wrongPort = await callProxy(proxy, 'eth', { host: node.address, auth: credentials, body: { method: 'getblockcount' } });
    expect(wrongPort).toMatchObject({
      status: 404,
      body: { code: 'NotFound', message: `node ${node.id} is not served on this port; its JSON-RPC is on port ${proxy.ports.ltc}` },
    });
    // On an address that names no node, the Basic user names it: one no node has is a wrong credential.
    expect(await rpc({ method: 'getblockcount' }, { host: '127.0.0.1', auth: 'nobody:wrong' })).toMatchObject({ status: 401, body: { code: 'Unauthorized' } });
  });

  it('refuses missing or wrong credentials with 401 and a Basic challenge', async () => {
    const other = await platform.createNode(user, { image: 'ltc' }, false);
    for (const auth of [undefined, `${node.nodeUser}:wrong`, `${other.nodeUser}:${other.nodePass}`, 'Bearer abc.def.ghi']) {
      const answer = await rpc({ method: 'getblockcount' }, { auth });
      expect([auth, answer.status, answer.headers['www-authenticate']]).toEqual([auth, 401, 'Basic realm="node", charset="UTF-8"']);
      expect(answer.body).toMatchObject({ code: 'Unauthorized' });
    }
  });

  it('answers 504 when the node does not answer in time, and 502 when it cannot be reached', async () => {
    // The node moves to an upstream that takes the connection and never answers (as a hung node
    // does), then to an address where nothing listens (as a stale upstream would look).
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const moveTo = async (upstream: string, revisionStep: number) => {
      const route = proxy.context.table.get(node.id)!;
      await platform.bus.publish([
        {
          id: `msg-test-${Date.now()}`,
          kind: 'node.running',
          occurredAt: new Date().toISOString(),
          payload: { ...routeOf(route), revision: route.revision + revisionStep, upstream, address: node.address },
        },
      ]);
      await waitUntil(`the route moved to ${upstream}`, () => proxy.context.table.get(node.id)?.upstream === upstream);
    };
    try {
      await moveTo(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, 1000);
      expect(await rpc({ method: 'getblockcount' })).toMatchObject({ status: 504, body: { code: 'GatewayTimeout' } });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
    await moveTo('http://127.0.0.1:9', 2000);
    expect(await rpc({ method: 'getblockcount' })).toMatchObject({ status: 502, body: { code: 'BadGateway' } });
  });
});

function routeOf(route: NonNullable<ReturnType<NodeProxy['context']['table']['get']>>) {
  const { nodeId, userId, image, chain, revision, state, basic, upstream } = route;
  return { nodeId, userId, image, chain, revision, state, basic, upstream };
}
