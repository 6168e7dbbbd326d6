import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { message, type AnyBusMessage, type Payload } from '@cloud/bus';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { sha256 } from '@cloud/nodes/testing';
import type { NodeProxy } from '../../src';
import { callProxy, type ProxyCall } from '../client';
import { waitUntil, type ProxyPlatform } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';

/** What the fake avalanchego saw of one request. */
interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
  /** The body's bytes as they came. */
  bytes: Buffer;
}

/**
 * A stand-in for avalanchego: answers every JSON-RPC call with the path it was posted to, and
 * GET /ext/health with `healthy` as the test sets it, noting every request it gets.
 */
function fakeAvalancheNode() {
  const seen: SeenRequest[] = [];
  const state = { healthy: true };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body, bytes });
      if (req.method === 'GET') {
        res.writeHead(state.healthy ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ checks: {}, healthy: state.healthy }));
        return;
      }
      const answer = (call: { id?: unknown; method?: unknown }) => ({ jsonrpc: '2.0', id: call.id, result: { path: req.url, method: call.method } });
      const parsed = JSON.parse(body) as unknown;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed as object)));
    });
  });
  return { server, seen, state };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** A loopback URL nothing listens on. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return url;
}

const PASSWORD = 'avalanche-test-password';

describe('the proxy serving an avalanche validator node', () => {
  let platform: ProxyPlatform;
  let proxy: NodeProxy;
  const fake = fakeAvalancheNode();
  const usage: AnyBusMessage[] = [];

  /** Puts a running avalanche node on the bus, as the nodes service would once its driver runs it. */
  async function publishNode(nodeId: string, upstream: string): Promise<void> {
    const route: Payload<'node.running'> = {
      nodeId,
      userId: 'user-avalanche',
      image: 'avalanchefuji',
      chain: 'avalanche',
      revision: 1,
      state: 'running',
      basic: { user: `${nodeId}-user`, passwordSha256: sha256(PASSWORD) },
      upstream,
      address: `${nodeId}.nodes.localhost`,
    };
    await platform.bus.publish([message('node.running', route)]);
    await waitUntil(`the proxy to route ${nodeId}`, () => proxy.context.table.get(nodeId) !== undefined);
  }

  const call = (request: Partial<ProxyCall>, nodeId = 'node-avalanche') =>
    callProxy(proxy, 'avalanche', { host: `${nodeId}.nodes.localhost`, auth: `${nodeId}-user:${PASSWORD}`, ...request });
  const status = (nodeId: string) => callProxy(proxy, 'management', { host: `${nodeId}.nodes.localhost`, auth: `${nodeId}-user:${PASSWORD}`, path: '/status' });

  beforeAll(async () => {
    const upstream = await listen(fake.server);
    platform = sharedProxyPlatform();
    await platform.bus.subscribe({ name: 'avalanche-usage-test', bindings: ['node.usage'], handle: async (messages) => void usage.push(...messages) });
    proxy = await platform.startProxy({ PROXY_USAGE_INTERVAL_MS: '3600000' });
    await publishNode('node-avalanche', upstream);
    await publishNode('node-avalanche-down', await closedUrl());
  }, 120_000);
  afterAll(async () => {
    await platform?.close();
    await new Promise((resolve) => fake.server.close(resolve));
  });

  it('forwards each JSON-RPC path to the same path on the node, re-serialised, with the proxy’s own login', async () => {
    const paths = [
      '/ext/info',
      '/ext/health',
      '/ext/bc/P',
      '/ext/bc/X',
      '/ext/bc/C/rpc',
      '/ext/bc/C/avax',
      '/ext/index/X/tx',
      '/ext/index/X/block',
      '/ext/index/P/block',
      '/ext/index/C/block',
    ];
    for (const path of paths) {
      const answer = await call({ path, body: '{ "jsonrpc": "2.0",\n  "id": 7, "method": "info.getNodeID", "params": {} }' });
      expect([path, answer]).toMatchObject([path, { status: 200, body: { jsonrpc: '2.0', id: 7, result: { path } } }]);
      expect(fake.seen.at(-1)).toEqual({
        method: 'POST',
        url: path,
        authorization: nodeRpcAuthorization(platform.rpcKey, 'node-avalanche'),
        body: '{"jsonrpc":"2.0","id":7,"method":"info.getNodeID","params":{}}',
        bytes: Buffer.from('{"jsonrpc":"2.0","id":7,"method":"info.getNodeID","params":{}}'),
      });
    }
  });

  it('forwards a body already written as the proxy would write it as it came, and one that is not UTF-8 as the proxy read it', async () => {
    const compact = Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"info.getNodeID","params":{"tag":"Ω"}},{"jsonrpc":"2.0","id":2,"method":"info.getNodeID"}]');
    expect(await call({ path: '/ext/info', body: compact })).toMatchObject({ status: 200, body: [{ id: 1 }, { id: 2 }] });
    expect(fake.seen.at(-1)!.bytes.equals(compact)).toBe(true);
    // 0xff is no UTF-8: read as U+FFFD, which is what was checked and what the node must get, never the byte itself.
    const notUtf8 = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":3,"method":"info.getNodeID","params":{"tag":"'),
      Buffer.from([0xff]),
      Buffer.from('"}}'),
    ]);
    expect(await call({ path: '/ext/info', body: notUtf8 })).toMatchObject({ status: 200, body: { id: 3 } });
    expect(fake.seen.at(-1)!.bytes.toString('hex')).toBe(
      Buffer.from('{"jsonrpc":"2.0","id":3,"method":"info.getNodeID","params":{"tag":"\ufffd"}}').toString('hex'),
    );
  });

  it('passes the health checks’ GETs through, with their query', async () => {
    expect(await call({ path: '/ext/health?tag=11111111111111111111111111111111LpoYY' })).toMatchObject({ status: 200, body: { healthy: true } });
    expect(fake.seen.at(-1)).toMatchObject({ method: 'GET', url: '/ext/health?tag=11111111111111111111111111111111LpoYY' });
    expect(await call({ path: '/ext/health/liveness' })).toMatchObject({ status: 200 });
    expect(fake.seen.at(-1)).toMatchObject({ method: 'GET', url: '/ext/health/liveness' });
  });

  it('answers 404 naming the path for everything else, without reaching the node', async () => {
    const before = fake.seen.length;
    for (const path of ['/ext/dev', '/ext/admin', '/ext/keystore', '/ext/bc/X/wallet', '/ext/metrics']) {
      const answer = await call({ path, body: { jsonrpc: '2.0', id: 1, method: 'health.health' } });
      expect([path, answer]).toMatchObject([
        path,
        { status: 404, body: { code: 'NotFound', message: expect.stringContaining(`nothing is served at ${path}`) } },
      ]);
    }
    const root = await call({ path: '/', body: { jsonrpc: '2.0', id: 1, method: 'info.getNodeID' } });
    expect(root).toMatchObject({ status: 404, body: { code: 'NotFound', message: expect.stringContaining('POST /ext/bc/C/rpc') } });
    // No WebSocket on this port: an upgrade is an ordinary request for an unserved path.
    const webSocket = await call({
      path: '/ext/bc/C/ws',
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    });
    expect(webSocket).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    expect(await call({ path: '/ext/bc/P' })).toMatchObject({ status: 405, headers: { allow: 'POST' }, body: { code: 'MethodNotAllowed' } });
    expect(fake.seen.length).toBe(before);
  });

  it('refuses platform.exportKey with -32601 itself, and a batch’s refused call in place', async () => {
    const before = fake.seen.length;
    const exportKey = await call({ path: '/ext/bc/P', body: { jsonrpc: '2.0', id: 5, method: 'platform.exportKey', params: { address: 'P-fuji1abc' } } });
    expect(exportKey).toMatchObject({
      status: 200,
      body: { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'method "platform.exportKey" is not allowed on this hosted node' } },
    });
    expect(fake.seen.length).toBe(before);

    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{}] },
    ];
    const answer = await call({ path: '/ext/bc/C/rpc', body: batch });
    expect(answer).toMatchObject({
      status: 200,
      body: [
        { id: 1, result: { path: '/ext/bc/C/rpc', method: 'eth_blockNumber' } },
        { id: 2, error: { code: -32601 } },
      ],
    });
    expect(JSON.parse(fake.seen.at(-1)!.body)).toEqual([batch[0]]);
  });

  it('refuses a caller without the node’s credentials', async () => {
    expect(await call({ path: '/ext/info', auth: 'node-avalanche-user:wrong', body: { jsonrpc: '2.0', id: 1, method: 'info.getNodeID' } })).toMatchObject({
      status: 401,
    });
  });

  it('tells the node’s health on the management port from its /ext/health', async () => {
    expect(await status('node-avalanche')).toMatchObject({ status: 200, body: 'healthy' });
    expect(fake.seen.at(-1)).toMatchObject({ method: 'GET', url: '/ext/health', authorization: nodeRpcAuthorization(platform.rpcKey, 'node-avalanche') });
    fake.state.healthy = false;
    try {
      expect(await status('node-avalanche')).toMatchObject({ status: 200, body: 'unreachable' });
    } finally {
      fake.state.healthy = true;
    }
    expect(await status('node-avalanche-down')).toMatchObject({ status: 200, body: 'unreachable' });
  });

  it('counts avalanche calls in usage and metrics, with no path or node id in a label', async () => {
    await proxy.context.usage.flush();
    await waitUntil('a usage message', () => usage.length > 0);
    const counted = usage.flatMap((published) => (published.kind === 'node.usage' ? published.payload.nodes : []));
    const mine = counted.find((entry) => entry.nodeId === 'node-avalanche');
    expect(mine).toMatchObject({ userId: 'user-avalanche', bytesIn: expect.any(Number), bytesOut: expect.any(Number) });
    expect(mine!.requests).toBeGreaterThanOrEqual(14);
    expect(mine!.blocked).toBeGreaterThanOrEqual(2);
    const metrics = await (await fetch(`${proxy.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/node_proxy_requests_total\{listener="avalanche",outcome="forwarded"\} \d+/);
    expect(metrics).toMatch(/node_proxy_requests_total\{listener="avalanche",outcome="not_found"\} \d+/);
    expect(metrics).toMatch(/node_proxy_refused_calls_total\{listener="avalanche"\} \d+/);
    expect(metrics).not.toContain('node-avalanche');
    expect(metrics).not.toContain('/ext/');
  });
});
