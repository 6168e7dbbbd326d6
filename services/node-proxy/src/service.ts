import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { remoteJwks, systemClock, TokenVerifier, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { Registry } from 'prom-client';
import { openBus, RouteSync, type Bus } from '@cloud/bus';
import { listenServer, probeDependencies, serveHttp, type ReadinessCheck, type RunningServer } from '@cloud/http';
import { createLogger, type Logger } from '@cloud/logging';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import { RevocationSet } from '@cloud/revocations';
import { createAdminApp } from './admin-app';
import { Authenticator } from './auth/authenticator';
import { LoginThrottle } from './auth/login-throttle';
import { DEFAULT_FILTER_DIR, type ProxyConfig } from './config';
import { Upstreams } from './forwarding/upstreams';
import { CallCache } from './cache/call-cache';
import { HeadTracker } from './heads/head-tracker';
import { MemberChoice } from './pools/member-choice';
import { MemberHealth } from './pools/member-health';
import { loadMethodPolicies } from './json-rpc/method-policy';
import { ProxyMetrics } from './metrics';
import { CONTRACT_PORTS, type ListenerName } from './routing/interfaces';
import { RouteTable } from './routing/route-table';
import type { ProxyContext } from './server/proxy-context';
import { RateLimiter } from './server/rate-limiter';
import { acceptLoopbackHttp } from './server/loopback-http';
import { requestHandler } from './server/request-handler';
import { WebSocketBridge } from './server/websocket-bridge';
import { loadProxyCertificate } from './tls/proxy-certificate';
import { UsageMeter } from './usage/usage-meter';

export const PROXY_SERVICE_NAME = 'cloud-node-proxy';

export interface NodeProxyOptions {
  logger?: Logger;
  clock?: Clock;
  /** A bus shared with the other services in this process; by default the proxy opens its own. */
  bus?: Bus;
  /** The accounts service's keys; by default read from its JWKS at ACCOUNTS_URL. */
  keys?: PublicKeyResolver;
  /**
   * As one of several workers (main.ts with PROXY_WORKERS > 1): no admin port (the primary serves
   * it for all), and the chain ports listen only once the routing table and the revocations are
   * loaded, so a replacement worker takes no call it would have to refuse with 503.
   */
  worker?: boolean;
}

export interface NodeProxy {
  context: ProxyContext;
  /** The port of each listener, once listening. */
  ports: Record<ListenerName, number>;
  /** The runtime contract's ports (8332, ...) → where this proxy listens: what printed addresses use when they differ. */
  contractPortMap: Record<number, number>;
  /** Empty for a worker (the primary serves the admin port). */
  adminUrl: string;
  /** Throws while the proxy cannot serve: routes or revocations not loaded, bus down (`/readyz`). */
  checkReady(): void;
  /** `https` or `http` (PROXY_TLS=off). */
  scheme: 'https' | 'http';
  /** The certificate clients should trust, when the proxy made its own (or was given one). */
  certificate?: string;
  close(): Promise<void>;
}

/**
 * Starts the node-proxy: loads the method rules, the certificate and the routing table's feed,
 * then listens on every chain port and the admin port. Resolves once all of them listen.
 */
export async function startNodeProxy(config: ProxyConfig, options: NodeProxyOptions = {}): Promise<NodeProxy> {
  const logger = options.logger ?? createLogger({ service: PROXY_SERVICE_NAME, level: config.LOG_LEVEL });
  const clock = options.clock ?? systemClock;
  const filters = loadMethodPolicies(DEFAULT_FILTER_DIR, config.PROXY_FILTER_DIR);
  const tls = config.PROXY_TLS === 'on' ? await loadProxyCertificate(config) : undefined;
  const bus = await openBus(config, PROXY_SERVICE_NAME, logger, options.bus);
  const table = new RouteTable(clock);
  const sync = new RouteSync({ bus, table, name: 'node-proxy.routes', logger, resyncIntervalMs: config.PROXY_RESYNC_INTERVAL_MS });
  const revocations = new RevocationSet({ bus, logger, service: PROXY_SERVICE_NAME, clock });
  const keys = options.keys ?? remoteJwks(new URL('/.well-known/jwks.json', config.ACCOUNTS_URL).href);
  const metrics = new ProxyMetrics();
  const upstreams = new Upstreams({ key: loadNodeRpcKey(config), timeoutMs: config.PROXY_UPSTREAM_TIMEOUT_MS, maxAnswerBytes: config.PROXY_MAX_ANSWER_BYTES });
  const memberHealth = new MemberHealth({ failuresToBench: config.PROXY_POOL_FAILURES_TO_BENCH, benchMs: config.PROXY_POOL_BENCH_MS, now: clock });
  metrics.measurePools(() => memberHealth.benchedCount);
  const heads = new HeadTracker({
    table,
    upstreams,
    health: memberHealth,
    logger,
    intervalMs: config.PROXY_HEAD_INTERVAL_MS,
    idleMs: config.PROXY_HEAD_IDLE_MS,
    now: clock,
  });
  const context: ProxyContext = {
    config,
    logger,
    bus,
    table,
    sync,
    auth: new Authenticator({ verifier: new TokenVerifier(keys, clock), isRevoked: revocations.isRevoked }, clock),
    throttle: new LoginThrottle({
      maxFailures: config.PROXY_AUTH_FAILURES,
      windowMs: config.PROXY_AUTH_FAILURE_WINDOW_MS,
      maxEntries: config.PROXY_AUTH_FAILURE_ENTRIES,
      now: clock,
    }),
    limiter: new RateLimiter({ ratePerSecond: config.PROXY_RATE_PER_SECOND, burst: config.PROXY_RATE_BURST, now: clock }),
    upstreams,
    heads,
    memberHealth,
    members: new MemberChoice({ table, heads }),
    filters,
    usage: new UsageMeter({
      bus,
      logger,
      proxyId: config.PROXY_INSTANCE_ID ?? `node-proxy-${randomUUID()}`,
      intervalMs: config.PROXY_USAGE_INTERVAL_MS,
      clock,
    }),
    metrics,
    cache: config.PROXY_CACHE_BYTES > 0 ? new CallCache({ ...config, heads, counters: metrics.cacheCounters(), now: clock }) : undefined,
    ports: {},
  };
  const { cache } = context;
  if (cache) metrics.measureCache(() => ({ bytes: cache.answers.bytes, entries: cache.answers.entries }));
  table.onChange((nodeId, route) => {
    context.auth.forget(nodeId);
    context.upstreams.forget(nodeId);
    if (!route) context.limiter.forget(nodeId);
    metrics.routes.set(table.size);
  });
  // Registered after the caches' listener: it re-checks open sockets, closing those of a node that
  // stopped running or moved, or whose caller's credentials no longer hold.
  const webSockets = new WebSocketBridge(context, 'eth');

  await revocations.start();
  await sync.start();
  context.usage.start();
  heads.start();
  const readiness: ReadinessCheck[] = [
    { name: 'routing table', check: () => sync.checkReady() },
    { name: 'token revocations', check: () => revocations.checkReady() },
    { name: 'token signing keys', check: () => keys.checkReady() },
    // The table in memory keeps serving without the broker (decision 020).
    { name: 'message bus', degradable: true, check: () => bus.checkReady() },
  ];
  metrics.measureDependencies(() => probeDependencies(readiness));
  const checkReady = () => {
    sync.checkReady();
    revocations.checkReady();
  };
  if (options.worker) await untilReady(checkReady);

  const wanted: Record<ListenerName, number> = {
    btc: config.PROXY_BTC_PORT,
    btctestnet: config.PROXY_BTC_TESTNET_PORT,
    ltc: config.PROXY_LTC_PORT,
    eth: config.PROXY_ETH_PORT,
    avalanche: config.PROXY_AVALANCHE_PORT,
    management: config.PROXY_MANAGEMENT_PORT,
  };
  const servers: RunningServer[] = [];
  const ports = {} as Record<ListenerName, number>;
  for (const [listener, port] of Object.entries(wanted) as [ListenerName, number][]) {
    const handler = requestHandler(context, listener);
    const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, handler) : createHttpServer(handler);
    // Plain HTTP from loopback callers on the same TLS port (litecoin-cli cannot speak TLS).
    const plain = tls && config.PROXY_LOOPBACK_HTTP ? createHttpServer(handler) : undefined;
    if (plain) acceptLoopbackHttp(server as ReturnType<typeof createHttpsServer>, plain);
    for (const each of [server, plain]) if (listener === 'eth') each?.on('upgrade', webSockets.upgrade);
    const running = await listenServer(server, { port, host: config.PROXY_HOST, logger, name: `node-proxy ${listener} port` });
    servers.push(plain ? { ...running, close: (graceMs) => closeBoth(running, plain, graceMs) } : running);
    ports[listener] = running.port;
  }
  Object.assign(context.ports, ports);
  const scrape = async () => {
    const registry = Registry.merge(metrics.registries);
    return { contentType: registry.contentType, text: await registry.metrics() };
  };
  const admin: RunningServer | undefined = options.worker
    ? undefined
    : await serveHttp(createAdminApp({ logger, metrics: scrape, readiness }), {
        port: config.PROXY_ADMIN_PORT,
        host: config.PROXY_ADMIN_HOST,
        logger,
        name: 'node-proxy admin',
      });

  let closing: Promise<void> | undefined;
  return {
    context,
    ports,
    contractPortMap: Object.fromEntries(Object.entries(ports).map(([listener, port]) => [CONTRACT_PORTS[listener as ListenerName], port])),
    adminUrl: admin?.url ?? '',
    checkReady,
    scheme: tls ? 'https' : 'http',
    ...(tls ? { certificate: tls.cert } : {}),
    // Once: a test restarting a replica closes it before the platform does.
    close() {
      closing ??= (async () => {
        webSockets.close();
        await Promise.all(servers.map((server) => server.close()));
        await admin?.close();
        await sync.stop();
        heads.stop();
        revocations.stop();
        await context.usage.stop();
        await context.upstreams.close();
        await bus.close();
      })();
      return closing;
    },
  };
}

/** Closes a TLS port and the plain HTTP connections it handed over (which the TLS server does not track). */
async function closeBoth(running: RunningServer, plain: ReturnType<typeof createHttpServer>, graceMs?: number): Promise<void> {
  plain.closeIdleConnections();
  const force = setTimeout(() => plain.closeAllConnections(), graceMs ?? 5_000);
  try {
    await running.close(graceMs);
  } finally {
    clearTimeout(force);
    plain.closeAllConnections();
  }
}

/** Resolves once `check` stops throwing; the loaders it waits on retry on their own. */
async function untilReady(check: () => void): Promise<void> {
  for (;;) {
    try {
      check();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
