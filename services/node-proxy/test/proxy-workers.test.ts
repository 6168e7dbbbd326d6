import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import type { AnyBusMessage } from '@cloud/bus';
import type { ListenerName } from '../src/routing/interfaces';
import { callProxy, type ProxyAnswer } from './client';
import { startProxyPlatform, waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from './harness';

const LISTENERS: Record<ListenerName, string> = {
  btc: 'BTC',
  btctestnet: 'BTC_TESTNET',
  ltc: 'LTC',
  eth: 'ETH',
  avalanche: 'AVALANCHE',
  management: 'MANAGEMENT',
};

/**
 * The proxy as a deployment runs it: `src/main.ts` in a process of its own with PROXY_WORKERS=2
 * (a node:cluster primary and two workers), on the test's RabbitMQ prefix, where the nodes
 * service in this process publishes the routes.
 */
describe('node-proxy with PROXY_WORKERS=2, as its own process', () => {
  let platform: ProxyPlatform;
  let user: TestUser;
  let node: CreatedNode;
  let primary: ChildProcess;
  let output = '';
  let adminUrl: string;
  let baseEnv: Record<string, string>;
  const ports = {} as Record<ListenerName, number>;
  const target = { ports, scheme: 'http' as const };
  /** node.usage messages as the nodes service gets them. */
  const usage: Array<Extract<AnyBusMessage, { kind: 'node.usage' }>> = [];

  const call = (credentials: string): Promise<ProxyAnswer> =>
    // A connection per call, so the primary hands the calls to the workers in turn. A call the
    // killed worker held may never be answered: the timeout ends it (as a failure).
    callProxy(target, 'ltc', {
      host: node.address,
      auth: credentials,
      headers: { connection: 'close' },
      timeoutMs: 10_000,
      body: { id: 1, method: 'getblockcount', params: [] },
    });
  const metrics = async () => (await fetch(`${adminUrl}/metrics`)).text();
  const metric = (text: string, name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  // getblockcount goes to the node, or is answered from the tracked head (README, Cache): served either way.
  const servedRequests = (text: string) =>
    (metric(text, 'node_proxy_requests_total{listener="ltc",outcome="forwarded"}') || 0) +
    (metric(text, 'node_proxy_requests_total{listener="ltc",outcome="cached"}') || 0);
  /** Requests counted in the usage messages so far, per sending worker. */
  const usageByWorker = () => {
    const counts = new Map<string, number>();
    for (const each of usage)
      for (const entry of each.payload.nodes)
        if (entry.nodeId === node.id) counts.set(each.payload.proxyId, (counts.get(each.payload.proxyId) ?? 0) + entry.requests);
    return counts;
  };
  const sum = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  const workersListening = async () => {
    try {
      return metric(await metrics(), 'node_proxy_workers') === 2 && (await fetch(`${adminUrl}/readyz`)).status === 200;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    platform = await startProxyPlatform({ rabbitmq: true });
    await platform.bus.subscribe({
      name: 'proxy-workers-test.usage',
      bindings: ['node.usage'],
      batchSize: 100,
      handle: async (messages) => {
        for (const each of messages) if (each.kind === 'node.usage') usage.push(each);
      },
    });
    user = await platform.user();
    node = await platform.createNode(user, { image: 'ltc' });

    baseEnv = {
      PATH: process.env.PATH ?? '',
      DATA_DIR: platform.dataDir,
      LOG_LEVEL: 'warn',
      PROXY_TLS: 'off',
      PROXY_WORKERS: '2',
      PROXY_USAGE_INTERVAL_MS: '200',
      PROXY_RATE_PER_SECOND: '100000',
      PROXY_RATE_BURST: '100000',
      ...platform.busEnv,
    };
    const free = await freePorts(Object.keys(LISTENERS).length + 1);
    adminUrl = `http://127.0.0.1:${free[0]}`;
    Object.keys(LISTENERS).forEach((listener, i) => (ports[listener as ListenerName] = free[i + 1]!));
    primary = spawnProxy({ ...baseEnv, ...portsEnv(free[0]!, ports) }, (text) => (output += text));
    try {
      await waitUntil('both workers to listen', workersListening, 60_000, 100);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the proxy wrote:\n${output}`, { cause: error });
    }
  }, 240_000);

  afterAll(async () => {
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      primary.kill('SIGKILL');
      for (const pid of childrenOf(primary.pid!)) process.kill(pid, 'SIGKILL');
    }
    await platform?.close();
  }, 180_000);

  it('serves calls from both workers, meters each call once and reports the sum on /metrics', async () => {
    const credentials = `${node.nodeUser}:${node.nodePass}`;
    const before = servedRequests(await metrics());
    for (let i = 0; i < 20; i += 1) expect(await call(credentials)).toMatchObject({ status: 200, body: { result: expect.any(Number), error: null } });

    // Each worker publishes what it served under its own id; together exactly the 20 calls.
    await waitUntil('the usage of the 20 calls', () => sum(usageByWorker()) >= 20, 10_000);
    const byWorker = usageByWorker();
    expect(sum(byWorker)).toBe(20);
    expect(byWorker.size).toBe(2);
    for (const served of byWorker.values()) expect(served).toBeGreaterThan(0);

    const text = await metrics();
    expect(servedRequests(text) - before).toBe(20);
    // The routing table is the same in each: the gauge is not summed.
    expect(metric(text, 'node_proxy_routes')).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'node_proxy_routes')).toBeLessThan(2 * metric(text, 'node_proxy_routes'));
    expect(metric(text, 'node_proxy_workers')).toBe(2);
  }, 180_000);

  it('applies a credential rotation in every worker', async () => {
    const old = `${node.nodeUser}:${node.nodePass}`;
    const rotated = await platform.rotateCredentials(user, node.id);
    const fresh = `${rotated.nodeUser}:${rotated.nodePass}`;
    await waitUntil('the rotation to reach a worker', async () => (await call(old)).status === 401, 5000, 20);
    // Calls alternate between the workers: every one of them refuses the old and takes the new.
    await waitUntil(
      'the rotation to reach every worker',
      async () => (await Promise.all([call(old), call(old)])).every((answer) => answer.status === 401),
      5000,
      20,
    );
    for (let i = 0; i < 6; i += 1) expect(await call(old)).toMatchObject({ status: 401 });
    for (let i = 0; i < 6; i += 1) expect(await call(fresh)).toMatchObject({ status: 200 });
    node = { ...node, nodeUser: rotated.nodeUser, nodePass: rotated.nodePass };
  }, 180_000);

  it('replaces a worker killed under a stream of calls; only calls it held fail', async () => {
    const credentials = `${node.nodeUser}:${node.nodePass}`;
    const workers = childrenOf(primary.pid!);
    expect(workers).toHaveLength(2);
    const restartsBefore = metric(await metrics(), 'node_proxy_worker_restarts_total');

    const CONCURRENCY = 4;
    /** Each call's outcome (status or error), with whether it started once the primary knew of the death. */
    const results: Array<{ outcome: number | string; afterNoticed: boolean }> = [];
    let noticed = false;
    let running = true;
    const stream = async () => {
      while (running) {
        const afterNoticed = noticed;
        try {
          results.push({ outcome: (await call(credentials)).status, afterNoticed });
        } catch (error) {
          results.push({ outcome: (error as Error).message, afterNoticed });
        }
      }
    };
    const streams = Array.from({ length: CONCURRENCY }, stream);
    let completedBeforeKill: number;
    try {
      await waitUntil('calls to flow', () => results.length >= 40, 20_000, 10);
      completedBeforeKill = results.length;
      process.kill(workers[0]!, 'SIGKILL');
      await waitUntil(
        'the primary to count the death',
        async () => metric(await metrics(), 'node_proxy_worker_restarts_total') === restartsBefore + 1,
        10_000,
        10,
      );
      noticed = true;
      await waitUntil(
        'a replacement worker to listen',
        async () => {
          const now = childrenOf(primary.pid!);
          return now.length === 2 && !now.includes(workers[0]!) && (await workersListening());
        },
        30_000,
        50,
      );
      const startedBeforeReplacement = results.length;
      await waitUntil('calls after the replacement', () => results.length >= startedBeforeReplacement + 40 + CONCURRENCY, 20_000, 10);
    } finally {
      running = false;
      await Promise.all(streams);
    }

    const failed = results.filter((each) => each.outcome !== 200);
    if (failed.length > 0) process.stderr.write(`failed calls around the kill: ${JSON.stringify(failed)}\n`);
    // Only calls the killed worker held: per caller, the one in flight on it and at most one the
    // primary handed it before it knew of the death; none done before the kill, none started after.
    expect(failed.length).toBeLessThanOrEqual(2 * CONCURRENCY);
    expect(results.slice(0, completedBeforeKill).every((each) => each.outcome === 200)).toBe(true);
    expect(failed.every((each) => !each.afterNoticed)).toBe(true);
    expect(results.length - failed.length).toBeGreaterThan(80);
    expect(metric(await metrics(), 'node_proxy_worker_restarts_total')).toBe(restartsBefore + 1);
    expect(metric(await metrics(), 'node_proxy_workers')).toBe(2);
    // The replacement serves too: a third worker id appears in the usage.
    try {
      await waitUntil('the replacement to meter calls', () => usageByWorker().size === 3, 10_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}: ${JSON.stringify([...usageByWorker()])}; the proxy wrote:\n${output}`, { cause: error });
    }
  }, 120_000);

  it('stops its workers and exits on SIGTERM', async () => {
    const workers = childrenOf(primary.pid!);
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of workers) expect(alive(pid)).toBe(false);
  }, 30_000);

  it('backs off forking workers that die before they listen, and serves once one can', async () => {
    // Another process holds the eth port: every worker fails to listen and exits.
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const free = await freePorts(Object.keys(LISTENERS).length + 1);
    const blockedPorts = Object.fromEntries(Object.keys(LISTENERS).map((listener, i) => [listener, free[i + 1]!])) as Record<ListenerName, number>;
    blockedPorts.eth = (blocker.address() as AddressInfo).port;
    const admin = `http://127.0.0.1:${free[0]}`;
    let text = '';
    const broken = spawnProxy({ ...baseEnv, ...portsEnv(free[0]!, blockedPorts) }, (chunk) => (text += chunk));
    try {
      const scrape = async () => (await fetch(`${admin}/metrics`)).text();
      await waitUntil('the first workers to fail', async () => metric(await scrape(), 'node_proxy_worker_restarts_total') >= 2, 30_000, 100);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      // Forked again after 1 s, 2 s, 4 s…: a handful in these seconds, not a loop.
      const restarts = metric(await scrape(), 'node_proxy_worker_restarts_total');
      expect(restarts).toBeLessThanOrEqual(8);
      expect(metric(await scrape(), 'node_proxy_workers')).toBe(0);
      expect((await fetch(`${admin}/readyz`)).status).toBe(503);
      expect((await fetch(`${admin}/healthz`)).status).toBe(200);
      expect(text).toContain('node-proxy worker exited; forking a replacement');

      await new Promise((resolve) => blocker.close(resolve));
      await waitUntil('a worker to listen once the port is free', async () => (await fetch(`${admin}/readyz`)).status === 200, 60_000, 200);
      const answer = await callProxy({ ports: blockedPorts, scheme: 'http' }, 'ltc', {
        host: node.address,
        auth: `${node.nodeUser}:${node.nodePass}`,
        headers: { connection: 'close' },
        body: { id: 1, method: 'getblockcount', params: [] },
      });
      expect(answer).toMatchObject({ status: 200, body: { result: expect.any(Number) } });
    } finally {
      const exited = new Promise((resolve) => broken.once('exit', resolve));
      broken.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});

/** `src/main.ts` in a process of its own (the TypeScript sources, as jest runs them); `onOutput` gets its stdout and stderr. */
function spawnProxy(env: Record<string, string>, onOutput: (text: string) => void): ChildProcess {
  const root = path.join(__dirname, '..');
  const child = spawn(
    process.execPath,
    ['--conditions=@cloud/source', '-r', require.resolve('@cloud/jest-preset/run-typescript.cjs'), path.join(root, 'src', 'main.ts')],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  return child;
}

function portsEnv(adminPort: number, ports: Record<ListenerName, number>): Record<string, string> {
  return {
    PROXY_ADMIN_PORT: String(adminPort),
    ...Object.fromEntries(Object.entries(ports).map(([listener, port]) => [`PROXY_${LISTENERS[listener as ListenerName]}_PORT`, String(port)])),
  };
}

/** Ports free right now (held together, so they differ, then released for the proxy). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve) => {
          const server = createServer();
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** The pids whose parent is `pid` (the cluster's workers), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The field after the parenthesised command name: state, then the parent's pid.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) === pid && state !== 'Z') children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
