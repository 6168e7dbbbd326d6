import type { NodeProxy } from '../../src';
import { basic, callProxy } from '../client';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';
import { openSocket, refusal, socketTo, type Message } from '../websocket-client';

const MiB = 1024 * 1024;
const call = (id: unknown, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });
/** An address given, for one eth_call, code that returns 50,000 zero bytes: an answer of 100 KB of hex. */
/** The proxy's refusal of eth_coinbase (refused on every node, dev or not), as it writes it. */
const refusedCoinbase = JSON.stringify({
  code: -32601,
  message: 'method "eth_coinbase" is not allowed on this hosted node',
  data: { refusedBy: 'platform', method: 'eth_coinbase', message: 'the method "eth_coinbase" does not exist/is not available on this hosted node' },
});
const CONTRACT = '0x00000000000000000000000000000000000b0b0b';
const big = (id: number) => call(id, 'eth_call', [{ to: CONTRACT, data: '0x' }, 'latest', { [CONTRACT]: { code: '0x6200c3506000f3' } }]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the process holds in JavaScript objects and buffers (sockets' data included). */
const memory = () => {
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed + usage.external, rss: usage.rss };
};

async function metric(proxy: NodeProxy, name: string): Promise<number> {
  const found = proxy.context.metrics.registry.getSingleMetric(name);
  return (await found!.get()).values[0]?.value ?? 0;
}

describe('the proxy’s bounds per connection and per node, in front of an Ethereum (anvil) node', () => {
  let platform: ProxyPlatform;
  let user: TestUser;
  let node: CreatedNode;
  let credentials: string;
  const generous = { PROXY_RATE_PER_SECOND: '1000000', PROXY_RATE_BURST: '1000000' };

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    await platform.startProxy(generous);
    user = await platform.user();
    node = await platform.createNode(user, { image: 'eth' });
    credentials = basic(`${node.nodeUser}:${node.nodePass}`);
  }, 120_000);
  afterAll(() => platform?.close());

  it('stops reading from a WebSocket client that does not read, holding no more than the bound, and delivers every answer once it reads', async () => {
    const proxy = await platform.startProxy(generous); // PROXY_WS_MAX_BUFFERED_BYTES: the default, 4 MiB
    const { ws, box, closed } = await openSocket(proxy, node.address, credentials);
    ws.pause(); // the client stops reading its socket
    const batches = 100;
    const before = memory();
    // 100 batches of 10 calls of 100 KB answers: 100 MB the proxy would hold without backpressure.
    for (let b = 0; b < batches; b++) ws.send(JSON.stringify(Array.from({ length: 10 }, (_, i) => big(b * 10 + i))));
    let peak = { held: 0, heap: 0, rss: 0 };
    for (let i = 0; i < 40; i++) {
      await sleep(100);
      const now = memory();
      peak = {
        held: Math.max(peak.held, await metric(proxy, 'node_proxy_websocket_held_bytes')),
        heap: Math.max(peak.heap, now.heap - before.heap),
        rss: Math.max(peak.rss, now.rss - before.rss),
      };
    }
    expect(peak.held).toBeGreaterThan(16 * 1024); // the client's answers wait in the proxy...
    expect(peak.held).toBeLessThanOrEqual(4 * MiB); // ...no more than the bound: the rest stays with the node
    expect(peak.heap).toBeLessThan(4 * MiB + 48 * MiB);
    expect(peak.rss).toBeLessThan(4 * MiB + 64 * MiB);

    ws.resume();
    await waitUntil('every answer', () => box.messages.length === batches, 120_000, 50);
    const answers = box.messages as Message[][];
    expect(answers.map((batch) => batch.length)).toEqual(Array(batches).fill(10));
    expect(new Set(answers.flat().map((answer) => (answer.result as string).length))).toEqual(new Set([2 + 100_000]));
    expect(await metric(proxy, 'node_proxy_websocket_overflows_total')).toBe(0);
    ws.close();
    expect(await closed).toBe(1005);
  }, 180_000);

  it('closes a client that does not read with 1008 once it would hold more than the bound', async () => {
    const proxy = await platform.startProxy({ ...generous, PROXY_WS_MAX_BUFFERED_BYTES: String(64 * 1024) });
    const { ws, box, closed } = await openSocket(proxy, node.address, credentials);
    ws.pause();
    for (let i = 0; i < 200; i++) ws.send(JSON.stringify(big(i)));
    await waitUntil('the proxy to close the socket', async () => (await metric(proxy, 'node_proxy_websocket_overflows_total')) === 1, 60_000, 50);
    ws.resume(); // the close frame comes after what the client had not read
    expect(await closed).toBe(1008);
    expect(box.messages.length).toBeGreaterThan(0);
    expect(box.messages.length).toBeLessThan(200);
    await waitUntil('the bridge to let the socket go', async () => (await metric(proxy, 'node_proxy_websockets')) === 0);
  }, 120_000);

  it('caps the WebSockets of one node: one more is answered 429 with Retry-After and a JSON body', async () => {
    const proxy = await platform.startProxy({ ...generous, PROXY_WS_PER_NODE: '3' });
    const open = await Promise.all([1, 2, 3].map(() => openSocket(proxy, node.address, credentials)));
    const refused = await refusal(socketTo(proxy, node.address, credentials));
    expect(refused).toEqual({
      status: 429,
      headers: expect.objectContaining({ 'retry-after': '5', 'content-type': 'application/json' }),
      body: { code: 'TooManyWebSockets', message: `node ${node.id} has 3 open WebSockets, the most it may have here; close one or try again later` },
    });
    open[0]!.ws.close();
    await open[0]!.closed;
    await waitUntil('the bridge to let the socket go', async () => (await metric(proxy, 'node_proxy_websockets')) === 2);
    const again = await openSocket(proxy, node.address, credentials);
    again.ws.send(JSON.stringify(call(1, 'eth_chainId')));
    expect(await again.box.next('an answer', (m) => !Array.isArray(m) && m.id === 1)).toMatchObject({ result: '0x7a69' });
    for (const socket of [...open.slice(1), again]) socket.ws.close();
  });

  it('counts a batch as one call per call against the node’s rate, over HTTP and WebSocket, and refuses it whole', async () => {
    // The rate limiter runs on the platform's fake clock: no token comes back during the test.
    const proxy = await platform.startProxy({ PROXY_RATE_PER_SECOND: '1', PROXY_RATE_BURST: '50' });
    const rpc = (body: unknown) => callProxy(proxy, 'eth', { host: node.address, auth: credentials, body });
    const batch = (size: number, from = 0) => Array.from({ length: size }, (_, i) => call(from + i, 'eth_chainId'));

    // Over the burst: it can never pass, and says so (no Retry-After to wait for).
    const tooBig = await rpc(batch(100));
    expect(tooBig).toMatchObject({
      status: 429,
      body: { code: 'TooManyRequests', message: "a batch of 100 calls is over this node's burst of 50 calls; send smaller batches" },
    });
    expect(tooBig.headers['retry-after']).toBeUndefined();
    // 49 tokens left (the refused request took its first): 40 pass, then 20 do not, whole.
    const passed = await rpc(batch(40));
    expect(passed.status).toBe(200);
    expect((passed.body as Message[]).map((answer) => answer.result)).toEqual(Array(40).fill('0x7a69'));
    const refused = await rpc(batch(20));
    expect(refused).toMatchObject({
      status: 429,
      headers: { 'retry-after': '11' },
      body: { code: 'TooManyRequests', message: "over this node's rate of 1 calls per second" },
    });
    // 8 left: the WebSocket's upgrade takes one, a batch of 7 passes, then one more call does not.
    const { ws, box } = await openSocket(proxy, node.address, credentials);
    ws.send(JSON.stringify(batch(7, 100)));
    expect(await box.next<Message[]>('the batch answer', (m) => Array.isArray(m))).toHaveLength(7);
    ws.send(JSON.stringify(batch(2, 200)));
    const error = { code: -32005, message: "over this node's rate of 1 calls per second" };
    expect(await box.next('the rate refusal', (m) => Array.isArray(m) && m[0]?.id === 200)).toEqual([
      { jsonrpc: '2.0', id: 200, error },
      { jsonrpc: '2.0', id: 201, error },
    ]);
    ws.close();
  });

  it('throttles wrong credentials per node and client address (429, Retry-After) without slowing the owner, until the window ends', async () => {
    const proxy = await platform.startProxy({ ...generous, TRUST_PROXY: 'true', PROXY_AUTH_FAILURES: '3', PROXY_AUTH_FAILURE_WINDOW_MS: '60000' });
    const from = (address: string, auth: string) =>
      callProxy(proxy, 'eth', { host: node.address, auth, body: call(1, 'eth_chainId'), headers: { 'x-forwarded-for': `10.9.9.9, ${address}` } });
    const wrong = basic(`${node.nodeUser}:wrong`);
    // The owner's client, behind the same address as the attacker, has called before.
    expect(await from('203.0.113.7', credentials)).toMatchObject({ status: 200, body: { result: '0x7a69' } });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7', wrong)).status).toBe(401);
    const throttled = await from('203.0.113.7', wrong);
    expect(throttled).toMatchObject({ status: 429, headers: { 'retry-after': '60' }, body: { code: 'TooManyFailedLogins' } });
    const upgrade = await refusal(socketTo(proxy, node.address, wrong, proxy.ports.eth, '/', { 'x-forwarded-for': '203.0.113.7' }));
    expect(upgrade).toMatchObject({ status: 429, headers: { 'retry-after': '60' }, body: { code: 'TooManyFailedLogins' } });
    // Per node: the same address is not throttled for another node.
    const other = await platform.createNode(user, { image: 'eth' }, false);
    const otherCall = await callProxy(proxy, 'eth', {
      host: other.address,
      auth: wrong,
      body: call(1, 'eth_chainId'),
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(otherCall.status).toBe(401);
    // The owner goes on, from its own address and from the attacker's with its verified credentials.
    expect(await from('198.51.100.2', credentials)).toMatchObject({ status: 200, body: { result: '0x7a69' } });
    expect(await from('203.0.113.7', credentials)).toMatchObject({ status: 200, body: { result: '0x7a69' } });
    const counted = (await proxy.context.metrics.requests.get()).values.find((value) => value.labels.outcome === 'login_throttled');
    expect(counted?.value).toBe(2);

    platform.clock.advance(60_000);
    expect((await from('203.0.113.7', wrong)).status).toBe(401);
  });

  describe('bad bodies', () => {
    let proxy: NodeProxy;
    beforeAll(async () => {
      proxy = await platform.startProxy(generous);
    });
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    const utf8 = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
    const BAD_BODIES: [string, string | Buffer][] = [
      ['nested 4,000 deep', deep(4_000)],
      ['params nested 100,000 deep', `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${deep(100_000)}}`],
      ['objects nested 5,000 deep', '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)],
      ['nesting never closed', '['.repeat(10_000)],
      ['a batch nested in a batch', '[[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}]]'],
      ['an id of 1e400 on a refused method', '{"jsonrpc":"2.0","id":1e400,"method":"eth_coinbase","params":[]}'],
      ['an id of 400 digits', `{"jsonrpc":"2.0","id":1${'0'.repeat(400)},"method":"eth_chainId","params":[]}`],
      ['a huge number in params', '{"jsonrpc":"2.0","id":2,"method":"eth_getBlockByNumber","params":[1e99999,false]}'],
      ['invalid UTF-8 outside strings', utf8('{', [0xff, 0xfe], '}')],
      ['invalid UTF-8 in the method', utf8('{"jsonrpc":"2.0","id":3,"method":"eth_', [0xc3, 0x28], '","params":[]}')],
      ['a lone surrogate in the method', '{"jsonrpc":"2.0","id":4,"method":"eth_\\ud800chainId","params":[]}'],
      ['a lone surrogate in params', '{"jsonrpc":"2.0","id":5,"method":"eth_getBalance","params":["\\udc00","latest"]}'],
      ['duplicate keys', '{"jsonrpc":"2.0","id":6,"id":7,"method":"eth_chainId","method":"eth_coinbase","params":[]}'],
      ['a number', '1'],
      ['a string', '"eth_chainId"'],
      ['null', 'null'],
      ['true', 'true'],
      ['a batch of non-objects', '[1,"a",null,[],true]'],
      ['an empty batch', '[]'],
      ['an empty body', ''],
      ['only whitespace', '  \n '],
      ['a truncated call', '{"jsonrpc":"2.0","id":8,"method":"eth_chainId"'],
      ['a byte-order mark', '\ufeff{"jsonrpc":"2.0","id":9,"method":"eth_chainId","params":[]}'],
      ['NaN', '{"jsonrpc":"2.0","id":NaN,"method":"eth_chainId"}'],
      ['a comment', '/* */{"jsonrpc":"2.0","id":10,"method":"eth_chainId"}'],
      ['a method that is no string', '{"jsonrpc":"2.0","id":11,"method":["eth_chainId"]}'],
      ['an object id on a refused method', '{"jsonrpc":"2.0","id":{"a":1},"method":"eth_coinbase"}'],
      ['a batch over the limit', JSON.stringify(Array(101).fill(call(1, 'eth_chainId')))],
    ];

    /** What every bad body must get: a JSON-RPC error or a 4xx `{code, message}`, never a 500 or silence. */
    const expectClearRefusal = (what: string, status: number, body: unknown) => {
      const answers = Array.isArray(body) ? (body as unknown[]) : [body];
      const isError = (answer: unknown) => typeof answer === 'object' && answer !== null && ('error' in answer || ('code' in answer && 'message' in answer));
      expect([what, status < 500, answers.length > 0 && answers.every(isError)]).toEqual([what, true, true]);
    };

    it('answers every bad body over HTTP with a JSON-RPC error or a 4xx JSON error', async () => {
      const bodies = [
        ...BAD_BODIES,
        ['a body over the limit', `{"jsonrpc":"2.0","id":12,"method":"eth_chainId","params":["${'a'.repeat(MiB)}"]}`] as [string, string],
      ];
      for (const [what, body] of bodies) {
        const answer = await callProxy(proxy, 'eth', { host: node.address, auth: credentials, body });
        expectClearRefusal(what, answer.status, answer.body);
      }
      const tooDeep = await callProxy(proxy, 'eth', { host: node.address, auth: credentials, body: deep(4_000) });
      expect(tooDeep).toMatchObject({
        status: 400,
        body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: the body is nested deeper than 64 levels' } },
      });
      expect((await callProxy(proxy, 'eth', { host: node.address, auth: credentials, body: call(1, 'eth_chainId') })).body).toMatchObject({ result: '0x7a69' });
    });

    it('answers every bad body with a JSON-RPC error or a 4xx JSON error in front of a Bitcoin-family node (the dev chain) too', async () => {
      const btc = await platform.createNode(user, { image: 'btc' });
      const btcAuth = basic(`${btc.nodeUser}:${btc.nodePass}`);
      // The same bodies, with Bitcoin methods where they name Ethereum ones.
      const bitcoinBodies = BAD_BODIES.map(
        ([what, body]) =>
          [what, typeof body === 'string' ? body.replaceAll('eth_chainId', 'getblockcount').replaceAll('eth_coinbase', 'dumpprivkey') : body] as const,
      );
      for (const [what, body] of bitcoinBodies) {
        const answer = await callProxy(proxy, 'btc', { host: btc.address, auth: btcAuth, body });
        // A 400-digit id on a method the node serves is a good call here: answered, with the id as written.
        if (what === 'an id of 400 digits') expect([answer.status, answer.text.includes(`"id":1${'0'.repeat(400)}}`)]).toEqual([200, true]);
        else expectClearRefusal(`btc: ${what}`, answer.status, answer.body);
      }
      const tooDeep = await callProxy(proxy, 'btc', { host: btc.address, auth: btcAuth, body: deep(4_000) });
      expect(tooDeep).toMatchObject({
        status: 400,
        body: { id: null, error: { code: -32600, message: 'invalid request: the body is nested deeper than 64 levels' } },
      });
    });

    it('answers every bad message over a WebSocket, one answer each, the socket open; closes only for frames the protocol refuses (1007, 1009)', async () => {
      const { ws, box, closed } = await openSocket(proxy, node.address, credentials);
      for (const [what, body] of BAD_BODIES) {
        const count = box.texts.length;
        // Bytes that are no UTF-8 cannot be a text frame: sent as binary, which is not JSON-RPC either.
        ws.send(body, { binary: Buffer.isBuffer(body) });
        await waitUntil(`the answer to ${what}`, () => box.texts.length > count, 10_000, 10);
        expectClearRefusal(what, 200, box.messages[count]);
      }
      expect(box.messages[0]).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: the body is nested deeper than 64 levels' },
      });
      // Re-serialised shorter than it came: spaces go, a refused call stays behind.
      ws.send(`  ${JSON.stringify([call('still', 'eth_chainId'), call('no', 'eth_coinbase')], null, 2)}  `);
      expect(await box.next('an answer', (m) => Array.isArray(m) && m[0]?.id === 'still')).toMatchObject([{ result: '0x7a69' }, { error: { code: -32601 } }]);
      // What the bridge counted in for each message, it counted out, whatever the proxy made of it.
      await waitUntil('the bridge to hold nothing', async () => (await metric(proxy, 'node_proxy_websocket_held_bytes')) === 0, 2_000, 20);
      // A text frame that is no UTF-8 breaks the WebSocket protocol itself: closed with 1007, as RFC 6455 requires.
      ws.send(utf8('{"id":1,"method":"eth_', [0xff], '"}'), { binary: false });
      expect(await closed).toBe(1007);
      // A message over the body limit is refused by the WebSocket's own rule for it: 1009.
      const large = await openSocket(proxy, node.address, credentials);
      large.ws.send(JSON.stringify(call(1, 'eth_call', ['a'.repeat(MiB)])));
      expect(await large.closed).toBe(1009);
    });

    it('forwards and answers ids exactly as written, over HTTP and WebSocket', async () => {
      const rpc = (body: string) => callProxy(proxy, 'eth', { host: node.address, auth: credentials, body });
      // Past 2^53: JSON.parse would make it 9007199254740992; anvil takes any u64 and echoes it.
      expect((await rpc('{"jsonrpc":"2.0","id":9007199254740993,"method":"eth_chainId","params":[]}')).text).toBe(
        '{"jsonrpc":"2.0","id":9007199254740993,"result":"0x7a69"}',
      );
      for (const id of ['12345678901234567890', '1e400', '-0', '1.50', '"1.50"']) {
        const refused = await rpc(`{"jsonrpc":"2.0","id":${id},"method":"eth_coinbase","params":[]}`);
        expect(refused.text).toBe(`{"jsonrpc":"2.0","id":${id},"error":${refusedCoinbase}}`);
      }
      // A merged batch: anvil writes -0 back as 0; the caller gets its own -0.
      const batch =
        '[{"jsonrpc":"2.0","id":9007199254740993,"method":"eth_chainId"},{"jsonrpc":"2.0","id":1e400,"method":"eth_coinbase"},{"jsonrpc":"2.0","id":-0,"method":"eth_chainId"}]';
      const merged = `[{"jsonrpc":"2.0","id":9007199254740993,"result":"0x7a69"},{"jsonrpc":"2.0","id":1e400,"error":${refusedCoinbase}},{"jsonrpc":"2.0","id":-0,"result":"0x7a69"}]`;
      expect((await rpc(batch)).text).toBe(merged);

      const { ws, box } = await openSocket(proxy, node.address, credentials);
      ws.send('{"jsonrpc":"2.0","id":12345678901234567890,"method":"eth_coinbase"}');
      ws.send(batch);
      ws.send('{"jsonrpc":"2.0","id":9007199254740993,"method":"eth_chainId"}');
      await waitUntil('three answers', () => box.texts.length === 3, 10_000, 10);
      expect(box.texts.sort()).toEqual(
        [`{"jsonrpc":"2.0","id":12345678901234567890,"error":${refusedCoinbase}}`, merged, '{"jsonrpc":"2.0","id":9007199254740993,"result":"0x7a69"}'].sort(),
      );
      ws.close();
    });
  });
});
