/**
 * Our node-proxy, as a child process, in front of the fast upstream (port in argv[2]): plain HTTP
 * (TLS is ended in front of it in production, and nginx gets none either), Basic authentication of
 * one `eth` node, the method filter and usage metering as in production; the per-node rate limit is
 * raised out of the way. The routing table and the revocations come from an in-process bus whose
 * `nodes.routes` and `revocations.snapshot` requests the benchmark answers itself.
 *
 * With `BENCH_ACCESS_RULES=1` the node also carries access rules every call passes (an IP
 * allowlist holding loopback, an origin, a refused method no call uses, two more credentials
 * before the bench's own), to measure what the owner's rules cost a call (issue 17).
 *
 * With a checkout's root in argv[3] (`BASELINE_ROOT`), the proxy and its packages are loaded from
 * that checkout's built `dist` instead, so an earlier version is measured in the same run.
 *
 * With `PROXY_WORKERS=N` (N > 1) this process is a node:cluster primary, as the proxy's main.ts
 * makes it: N workers, each the above with its own in-process bus, share the port.
 *
 * In front of a real node (`real-node.ts`), `BENCH_NODE_IMAGE` is its image (`eth`, `ltc`: the
 * listener that serves it) and `BENCH_NODE_RPC_KEY_FILE` the key its RPC login derives from, as
 * the nodes service and the proxy share it. `BENCH_PROXY_TLS=on` ends TLS on the chain port with
 * the proxy's own self-signed certificate, as `npm start` does. `BENCH_NODE_DEV=1` marks the node
 * as on a private dev chain (as the nodes service marks a regtest or anvil node), and
 * `BENCH_PROXY_CACHE_BYTES` sets `PROXY_CACHE_BYTES` (0: no cache; unset: the proxy's default). The
 * child reports its admin URL (`/metrics`) among its facts.
 */
import cluster from 'node:cluster';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as AuthModule from '@cloud/auth';
import type * as BusModule from '@cloud/bus';
import type { NodeRoute } from '@cloud/bus';
import type * as LoggingModule from '@cloud/logging';
import type * as ProxyModule from '@cloud/node-proxy';
import { reportReady, type ReadyMessage } from './child';
import { BENCH_NODE_ID, BENCH_NODE_PASSWORD, BENCH_NODE_USER, sha256Hex } from './requests';

interface ProxyModules {
  auth: typeof AuthModule;
  bus: typeof BusModule;
  logging: typeof LoggingModule;
  proxy: typeof ProxyModule;
}

/** The proxy's packages from this checkout, or from the checkout at `root` (its bench workspace's view of them). */
function loadModules(root: string | undefined): ProxyModules {
  const load = root ? createRequire(path.join(path.resolve(root), 'bench', 'package.json')) : require;
  return { auth: load('@cloud/auth'), bus: load('@cloud/bus'), logging: load('@cloud/logging'), proxy: load('@cloud/node-proxy') };
}

/** Rules and credentials every bench call passes, the bench's credential last, so each lookup goes through the others. */
function withAccessRules(): Pick<NodeRoute, 'credentials' | 'access'> {
  const other = (n: number) => ({ id: `cred-${n}`, user: `u-other-${n}`, passwordSha256: sha256Hex(`other-${n}`) });
  return {
    credentials: [other(1), other(2), { id: 'cred-bench', user: BENCH_NODE_USER, passwordSha256: sha256Hex(BENCH_NODE_PASSWORD) }],
    access: {
      ipAllowlist: ['10.0.0.0/8', '127.0.0.0/8', '::1/128'],
      originAllowlist: ['https://bench.example'],
      refusedMethods: ['eth_getlogs'],
      ratePerSecond: null,
      maxAnswerBytes: null,
    },
  };
}

async function main(): Promise<void> {
  const upstreamPort = Number(process.argv[2]);
  if (!Number.isInteger(upstreamPort) || upstreamPort <= 0) throw new Error(`usage: node-proxy.js <upstream port> [baseline root], not ${process.argv[2]}`);
  const { auth, bus: busModule, logging, proxy: proxyModule } = loadModules(process.argv[3]);
  const { staticKeys } = auth;
  const { InProcessBus } = busModule;
  const { createLogger } = logging;
  const { loadProxyConfig, startNodeProxy } = proxyModule;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-node-proxy-'));
  const logger = createLogger({ service: 'bench', level: 'silent' });
  const bus = new InProcessBus(logger);
  const image = process.env.BENCH_NODE_IMAGE === 'ltc' ? 'ltc' : 'eth';
  const route: NodeRoute = {
    nodeId: BENCH_NODE_ID,
    userId: 'user-bench',
    image,
    chain: image,
    revision: 1,
    state: 'running',
    basic: { user: BENCH_NODE_USER, passwordSha256: sha256Hex(BENCH_NODE_PASSWORD) },
    upstream: `http://127.0.0.1:${upstreamPort}`,
    ...(process.env.BENCH_NODE_DEV === '1' ? { dev: true } : {}),
    ...(process.env.BENCH_ACCESS_RULES === '1' ? withAccessRules() : {}),
  };
  await bus.serve('nodes.routes', async () => ({ routes: [route], next: null }));
  await bus.serve('revocations.snapshot', async () => ({ clientKeys: [], credentials: [], users: [] }));
  const config = loadProxyConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PROXY_TLS: process.env.BENCH_PROXY_TLS === 'on' ? 'on' : 'off',
    ...(process.env.BENCH_NODE_RPC_KEY_FILE ? { NODE_RPC_KEY_FILE: process.env.BENCH_NODE_RPC_KEY_FILE } : {}),
    PROXY_BTC_PORT: '0',
    PROXY_BTC_TESTNET_PORT: '0',
    PROXY_LTC_PORT: '0',
    PROXY_ETH_PORT: '0',
    PROXY_AVALANCHE_PORT: '0',
    PROXY_MANAGEMENT_PORT: '0',
    PROXY_ADMIN_PORT: '0',
    PROXY_RATE_PER_SECOND: '1000000',
    PROXY_RATE_BURST: '1000000',
    ...(process.env.BENCH_PROXY_CACHE_BYTES ? { PROXY_CACHE_BYTES: process.env.BENCH_PROXY_CACHE_BYTES } : {}),
  });
  const proxy = await startNodeProxy(config, { bus, logger, keys: staticKeys([]), worker: cluster.isWorker });
  const deadline = Date.now() + 10_000;
  while (!proxy.context.sync.loaded) {
    if (Date.now() > deadline) throw new Error('the node-proxy did not load its routes within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  reportReady(
    proxy.ports[image],
    async () => {
      await proxy.close();
      await bus.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { facts: { adminUrl: proxy.adminUrl } },
  );
}

/** Forks the workers, reports the port they share once all listen, and stops them when told to. */
async function runPrimary(workers: number): Promise<void> {
  const forked = Array.from({ length: workers }, () => cluster.fork());
  const ports = await Promise.all(
    forked.map(
      (worker) =>
        new Promise<number>((resolve, reject) => {
          worker.once('message', (message: ReadyMessage) => resolve(message.port));
          worker.once('exit', () => reject(new Error('a node-proxy worker exited before it was ready')));
        }),
    ),
  );
  reportReady(ports[0]!, async () => {
    await Promise.all(
      forked.map(
        (worker) =>
          new Promise((resolve) => {
            worker.removeAllListeners('exit');
            worker.once('exit', resolve);
            worker.send('stop');
          }),
      ),
    );
  });
}

const WORKERS = Number(process.env.PROXY_WORKERS || '1');
(WORKERS > 1 && cluster.isPrimary ? runPrimary(WORKERS) : main()).catch((error: unknown) => {
  process.stderr.write(`node-proxy (bench) failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
