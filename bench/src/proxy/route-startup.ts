/**
 * A node-proxy replica starting with `NODES` (default 100,000) running nodes: the time from
 * `startNodeProxy` to the first answered call to the last node (the table loads page by page over
 * the bus's `nodes.routes` request, 1000 routes a page), and the memory the table holds (RSS and
 * heap after loading, less before starting, after a GC). The pages come from an in-process bus
 * answered in this process, as the nodes service's keyset pages would be (no database time is in
 * the figure), and the last node's upstream is a tiny local JSON-RPC server.
 *
 *   npm run bench:routes -w bench          (NODES=... to change the count)
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { staticKeys } from '@cloud/auth';
import { InProcessBus, type NodeRoute } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { loadProxyConfig, startNodeProxy } from '@cloud/node-proxy';

const NODES = Number(process.env.NODES ?? 100_000);
const FREE_PORTS = Object.fromEntries(['BTC', 'BTC_TESTNET', 'LTC', 'ETH', 'AVALANCHE', 'MANAGEMENT', 'ADMIN'].map((name) => [`PROXY_${name}_PORT`, '0']));

const nodeId = (index: number) => `node-${String(index).padStart(7, '0')}`;
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A route as the nodes service announces a running eth node, with one Basic credential and no access rules. */
function routeOf(index: number, upstream: string): NodeRoute {
  const user = `u-${index}`;
  const passwordSha256 = sha256Hex(`secret-${index}`);
  return {
    nodeId: nodeId(index),
    userId: `user-${index % 9973}`,
    image: 'eth',
    chain: 'eth',
    revision: 3,
    state: 'running',
    basic: { user, passwordSha256 },
    credentials: [{ id: `cred-${index}`, user, passwordSha256 }],
    upstream,
  };
}

function memory(): { rss: number; heap: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heap: heapUsed };
}

/** One JSON-RPC call through the proxy's eth port to `index`'s node; its HTTP status. */
function call(port: number, domain: string, index: number): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        headers: {
          host: `${nodeId(index)}.${domain}`,
          authorization: `Basic ${Buffer.from(`u-${index}:secret-${index}`).toString('base64')}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) throw new Error('run with node --expose-gc, so memory is measured after a collection');
  const upstream = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"jsonrpc":"2.0","id":1,"result":"0x10"}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const logger = createLogger({ service: 'bench', level: 'silent' });
  const bus = new InProcessBus(logger);
  let pages = 0;
  await bus.serve('revocations.snapshot', () => Promise.resolve({ clientKeys: [], credentials: [], users: [], next: null }));
  await bus.serve('nodes.routes', ({ after, limit }) => {
    pages += 1;
    const from = after === undefined ? 0 : Number(after.slice('node-'.length)) + 1;
    const routes: NodeRoute[] = [];
    for (let index = from; index < Math.min(from + limit, NODES); index += 1) routes.push(routeOf(index, upstreamUrl));
    return Promise.resolve({ routes, next: routes.length === limit ? routes.at(-1)!.nodeId : null });
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-routes-'));
  const config = loadProxyConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PROXY_TLS: 'off', ...FREE_PORTS });

  const before = memory();
  const started = performance.now();
  const proxy = await startNodeProxy(config, { logger, bus, keys: staticKeys([]) });
  const listening = performance.now();
  // 503 until the table is loaded (the last node is on the last page); then 200.
  for (;;) {
    const status = await call(proxy.ports.eth, config.NODE_DOMAIN, NODES - 1);
    if (status === 200) break;
    if (status !== 503) throw new Error(`the call to the last node answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const firstCall = performance.now();
  const after = memory();
  const routes = proxy.context.table.size;

  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  process.stdout.write(`| nodes | pages | listening after | first call to the last node after | table RSS (MB) | table heap (MB) | process RSS (MB) |\n`);
  process.stdout.write(`|---|---|---|---|---|---|---|\n`);
  process.stdout.write(
    `| ${routes} | ${pages} | ${((listening - started) / 1000).toFixed(2)} s | ${((firstCall - started) / 1000).toFixed(2)} s | ${mb(after.rss - before.rss)} | ${mb(after.heap - before.heap)} | ${mb(after.rss)} |\n`,
  );
  await proxy.close();
  await bus.close();
  upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
