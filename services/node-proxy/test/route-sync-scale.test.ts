import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { staticKeys } from '@cloud/auth';
import { InProcessBus, message, type NodeRoute } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { loadProxyConfig, startNodeProxy, type NodeProxy } from '../src';
import { callProxy } from './client';
import { waitUntil } from './harness';

const NODES = 100_000;
const PAGE = 1000;
const FREE_PORTS = Object.fromEntries(['BTC', 'BTC_TESTNET', 'LTC', 'ETH', 'AVALANCHE', 'MANAGEMENT', 'ADMIN'].map((name) => [`PROXY_${name}_PORT`, '0']));

/** Node ids that sort as their numbers do, as the nodes service pages in id order. */
const nodeId = (index: number) => `node-${String(index).padStart(6, '0')}`;
const password = (index: number) => `secret-${index}`;

function routeOf(index: number, upstream: string): NodeRoute {
  const user = `u-${index}`;
  const passwordSha256 = createHash('sha256').update(password(index)).digest('hex');
  return {
    nodeId: nodeId(index),
    userId: `user-${index % 977}`,
    image: 'ltc',
    chain: 'ltc',
    revision: 1,
    state: 'running',
    basic: { user, passwordSha256 },
    credentials: [{ id: `cred-${index}`, user, passwordSha256 }],
    upstream,
  };
}

/**
 * A replica starting with 100,000 running nodes: the routing table comes in pages over the bus's
 * request/reply (no single huge reply), and the last node is served. The `nodes.routes` answers
 * come from a page server keeping the nodes service's contract (keyset pages in id order, `next`
 * the last id of a full page), so the test needs no 100,000-row database.
 */
describe('a routing table of 100,000 nodes', () => {
  let bus: InProcessBus;
  let proxy: NodeProxy;
  let upstream: Server;
  let upstreamUrl: string;
  let dataDir: string;
  const pagesAsked: { after: string | undefined; limit: number }[] = [];
  const upstreamCalls: string[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        upstreamCalls.push(body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ result: 4242, error: null, id: 'count' }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

    const logger = createLogger({ service: 'proxy-scale-test', level: 'silent' });
    bus = new InProcessBus(logger);
    await bus.serve('revocations.snapshot', () => Promise.resolve({ clientKeys: [], credentials: [], users: [], next: null }));
    await bus.serve('nodes.routes', ({ after, limit }) => {
      pagesAsked.push({ after, limit });
      const from = after === undefined ? 0 : Number(after.slice('node-'.length)) + 1;
      const to = Math.min(from + limit, NODES);
      const routes = [];
      for (let index = from; index < to; index += 1) routes.push(routeOf(index, upstreamUrl));
      return Promise.resolve({ routes, next: routes.length === limit ? routes.at(-1)!.nodeId : null });
    });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'proxy-scale-'));
    const config = loadProxyConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PROXY_TLS: 'off', ...FREE_PORTS });
    proxy = await startNodeProxy(config, { logger, bus, keys: staticKeys([]) });
    await waitUntil('the routing table to load', () => proxy.context.sync.loaded, 60_000);
  }, 180_000);
  afterAll(async () => {
    await proxy?.close();
    await bus?.close();
    await new Promise((resolve) => upstream?.close(resolve));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads every route in pages of at most 1000, each asked after the previous one, and serves a call to the last node', async () => {
    expect(proxy.context.table.size).toBe(NODES);
    expect(pagesAsked).toHaveLength(NODES / PAGE + 1); // the last full page's `next` leads to an empty one
    expect(pagesAsked.every((page) => page.limit === PAGE)).toBe(true);
    expect(pagesAsked[0]!.after).toBeUndefined();
    expect(pagesAsked.slice(1).map((page) => page.after)).toEqual(Array.from({ length: NODES / PAGE }, (_, page) => nodeId((page + 1) * PAGE - 1)));

    const last = NODES - 1;
    const answer = await callProxy(proxy, 'ltc', {
      host: `${nodeId(last)}.${proxy.context.config.NODE_DOMAIN}`,
      auth: `u-${last}:${password(last)}`,
      body: { jsonrpc: '1.0', id: 'count', method: 'getblockcount', params: [] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: 4242, error: null });
    expect(JSON.parse(upstreamCalls.at(-1)!)).toMatchObject({ method: 'getblockcount' });
    // By its Basic user alone too (the user index covers every node).
    expect(proxy.context.table.byNodeUser(`u-${last}`)?.nodeId).toBe(nodeId(last));
    const metrics = await (await fetch(`${proxy.adminUrl}/metrics`)).text();
    expect(metrics).toContain(`node_proxy_routes ${NODES}`);
    // The bus's dead-letter counter is served with the proxy's own metrics.
    expect(metrics).toContain('# TYPE bus_messages_dead_lettered_total counter');
  });

  it('applies a change to one node as that one change: no reload, one notification', async () => {
    const changed: string[] = [];
    proxy.context.table.onChange((id) => changed.push(id));
    const pagesBefore = pagesAsked.length;
    const moved = { ...routeOf(50_000, 'http://127.0.0.1:9'), revision: 2 };
    await bus.publish([message('node.running', { ...moved, address: `${moved.nodeId}.${proxy.context.config.NODE_DOMAIN}` })]);
    await waitUntil('the change to apply', () => proxy.context.table.get(moved.nodeId)?.revision === 2, 10_000);
    expect(proxy.context.table.get(moved.nodeId)?.upstream).toBe('http://127.0.0.1:9');
    expect(changed).toEqual([moved.nodeId]);
    expect(pagesAsked).toHaveLength(pagesBefore);
    expect(proxy.context.table.size).toBe(NODES);
  });
});
