import { createLogger } from '@cloud/logging';
import { startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestPlatformOptions, type TestUser } from '@cloud/nodes/testing';
import { loadProxyConfig, startNodeProxy, type NodeProxy } from '../src';

export { waitUntil };
export type { TestUser };

/** Every proxy port picked by the system. */
const FREE_PORTS = Object.fromEntries(['BTC', 'BTC_TESTNET', 'LTC', 'ETH', 'AVALANCHE', 'MANAGEMENT', 'ADMIN'].map((name) => [`PROXY_${name}_PORT`, '0']));

/** A node as its creator got it: with its Basic credentials (none for a jwt node). */
export interface CreatedNode {
  id: string;
  address: string;
  image: string;
  state: string;
  nodeUser?: string;
  nodePass?: string;
}

export interface ProxyPlatform extends TestPlatform {
  nodes: TestNodes;
  /** Starts a node-proxy replica on the platform's bus, and waits until its routing table is loaded. */
  startProxy(env?: Record<string, string>): Promise<NodeProxy>;
  /**
   * Creates a node through the nodes API and waits until it runs, or, with `wait` false, only
   * until every proxy started so far has heard of it (the outbox relays the news with a delay).
   */
  createNode(user: TestUser, body: { image: string; jwt?: boolean }, wait?: boolean): Promise<CreatedNode>;
  /** Rotates a node's Basic credentials as an owner does: a new credential, then the others revoked; the new one. */
  rotateCredentials(user: TestUser, nodeId: string): Promise<{ nodeUser: string; nodePass: string }>;
  /**
   * The same platform for one suite of several sharing it: the proxies started and the nodes
   * created through the scope are its own, and its `close` closes those proxies and deletes those
   * nodes (as their owner), leaving the platform running for the next suite.
   */
  scope(): ProxyPlatform;
}

/**
 * The accounts service, one nodes-service instance running real nodes (local driver) and the
 * node-proxy replicas a test starts, sharing one bus (in-process, or RabbitMQ with a prefix of
 * their own) as `npm start` or a deployment would.
 */
export async function startProxyPlatform(options: TestPlatformOptions & { nodesEnv?: Record<string, string> } = {}): Promise<ProxyPlatform> {
  const platform = await startTestPlatform(options);
  const nodes = await platform.startNodes(options.nodesEnv);
  const proxies: NodeProxy[] = [];
  const logger = createLogger({ service: 'proxy-test', level: 'silent' });
  const proxyPlatform: ProxyPlatform = {
    ...platform,
    nodes,
    async startProxy(env = {}) {
      const config = loadProxyConfig({ DATA_DIR: platform.dataDir, LOG_LEVEL: 'silent', PROXY_TLS: 'off', ...FREE_PORTS, ...platform.busEnv, ...env });
      const proxy = await startNodeProxy(config, {
        logger,
        keys: platform.keys,
        clock: platform.clock,
        ...(platform.sharedBus ? { bus: platform.sharedBus } : {}),
      });
      proxies.push(proxy);
      // A closed replica hears of nothing more: later nodes are not waited for on it. Closing
      // twice (a test, then its suite's scope) closes once.
      const close = proxy.close.bind(proxy);
      let closing: Promise<void> | undefined;
      proxy.close = () =>
        (closing ??= (async () => {
          proxies.splice(proxies.indexOf(proxy), 1);
          await close();
        })());
      platform.ownBus(proxy.context.bus);
      await waitUntil('the routing table to load', () => proxy.context.sync.loaded, 20_000);
      return proxy;
    },
    async createNode(user, body, wait = true) {
      const created = await nodes.http.post('/users/me/nodes').set('authorization', `Bearer ${user.clientToken}`).send(body).expect(200);
      const node = created.body as CreatedNode;
      await waitUntil(`the proxies to hear of node ${node.id}`, () => proxies.every((proxy) => proxy.context.table.get(node.id)), 10_000);
      if (wait) {
        await waitUntil(
          `node ${node.id} to run`,
          async () => (await nodes.http.get(`/users/me/nodes/${node.id}`).set('authorization', `Bearer ${user.clientToken}`)).body.state === 'running',
          60_000,
          100,
        );
        // The proxies hear of `running` over the bus a moment later: a call before that is NodeNotReady.
        await waitUntil(
          `the proxies to route node ${node.id} as running`,
          () => proxies.every((proxy) => proxy.context.table.get(node.id)?.state === 'running'),
          10_000,
        );
      }
      return node;
    },
    async rotateCredentials(user, nodeId) {
      const api = (method: 'get' | 'post' | 'delete', path = '') =>
        nodes.http[method](`/users/me/nodes/${nodeId}/credentials${path}`).set('authorization', `Bearer ${user.clientToken}`);
      const before = (await api('get').expect(200)).body as Array<{ id: string }>;
      const created = (
        await api('post')
          .send({ name: `rotated-${Date.now()}` })
          .expect(200)
      ).body as { nodeUser: string; nodePass: string };
      for (const { id } of before) await api('delete', `/${id}`).expect(200);
      return created;
    },
    async close() {
      for (const proxy of [...proxies]) await proxy.close();
      await platform.close();
    },
    scope: () => scopeOf(proxyPlatform),
  };
  return proxyPlatform;
}

function scopeOf(platform: ProxyPlatform): ProxyPlatform {
  const own: NodeProxy[] = [];
  const created: Array<{ user: TestUser; nodeId: string }> = [];
  return {
    ...platform,
    async startProxy(env) {
      const proxy = await platform.startProxy(env);
      own.push(proxy);
      return proxy;
    },
    async createNode(user, body, wait) {
      const node = await platform.createNode(user, body, wait);
      created.push({ user, nodeId: node.id });
      return node;
    },
    scope: () => scopeOf(platform),
    async close() {
      for (const proxy of own) await proxy.close();
      // Its nodes stop in the background; a node already deleted, or an owner whose token the
      // suite let expire (a 401), leaves nothing more to do here: the platform's close stops it.
      for (const { user, nodeId } of created) {
        await platform.nodes.http.delete(`/users/me/nodes/${nodeId}`).set('authorization', `Bearer ${user.clientToken}`);
      }
    },
  };
}
