/**
 * Our node-proxy, as a child process, in front of the fast upstream (port in argv[2]): plain HTTP
 * (TLS is ended in front of it in production, and nginx gets none either), Basic authentication of
 * one `eth` node, the method filter and usage metering as in production; the per-node rate limit is
 * raised out of the way. The routing table and the revocations come from an in-process bus whose
 * `nodes.routes` and `revocations.snapshot` requests the benchmark answers itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { staticKeys } from '@cloud/auth';
import { InProcessBus, type NodeRoute } from '@cloud/bus';
import { createLogger } from '@cloud/logging';
import { loadProxyConfig, startNodeProxy } from '@cloud/node-proxy';
import { reportReady } from './child';
import { BENCH_NODE_ID, BENCH_NODE_PASSWORD, BENCH_NODE_USER, sha256Hex } from './requests';

async function main(): Promise<void> {
  const upstreamPort = Number(process.argv[2]);
  if (!Number.isInteger(upstreamPort) || upstreamPort <= 0) throw new Error(`usage: node-proxy.js <upstream port>, not ${process.argv[2]}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-node-proxy-'));
  const logger = createLogger({ service: 'bench', level: 'silent' });
  const bus = new InProcessBus(logger);
  const route: NodeRoute = {
    nodeId: BENCH_NODE_ID,
    userId: 'user-bench',
    image: 'eth',
    chain: 'eth',
    revision: 1,
    state: 'running',
    basic: { user: BENCH_NODE_USER, passwordSha256: sha256Hex(BENCH_NODE_PASSWORD) },
    upstream: `http://127.0.0.1:${upstreamPort}`,
  };
  await bus.serve('nodes.routes', async () => ({ routes: [route], next: null }));
  await bus.serve('revocations.snapshot', async () => ({ clientKeys: [], credentials: [], users: [] }));
  const config = loadProxyConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PROXY_TLS: 'off',
    PROXY_BTC_PORT: '0',
    PROXY_BTC_TESTNET_PORT: '0',
    PROXY_LTC_PORT: '0',
    PROXY_ETH_PORT: '0',
    PROXY_AVALANCHE_PORT: '0',
    PROXY_MANAGEMENT_PORT: '0',
    PROXY_ADMIN_PORT: '0',
    PROXY_RATE_PER_SECOND: '1000000',
    PROXY_RATE_BURST: '1000000',
  });
  const proxy = await startNodeProxy(config, { bus, logger, keys: staticKeys([]) });
  const deadline = Date.now() + 10_000;
  while (!proxy.context.sync.loaded) {
    if (Date.now() > deadline) throw new Error('the node-proxy did not load its routes within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  reportReady(proxy.ports.eth, async () => {
    await proxy.close();
    await bus.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`node-proxy (bench) failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
