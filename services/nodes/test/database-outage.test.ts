import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { message, type InProcessBus, type RetryPolicy } from '@cloud/bus';
import { BrokerLink } from '@cloud/bus/testing';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { asProxy, jsonRpc } from './rpc-client';

// The machine's PostgreSQL, reached through a relay the test cuts: an outage of the database
// server as the service sees it, without stopping a server other tests share.
const POSTGRES = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// Short leases, so an outage lasts several of them.
const LEASE_SECONDS = '2';

let platform: TestPlatform;
let user: TestUser;
const links: BrokerLink[] = [];

async function blockCount(nodes: TestNodes, id: string): Promise<number> {
  const status = await nodes.service.driver.status(id);
  if (status.state !== 'running') throw new Error(`${id} is ${status.state} at ${nodes.service.instanceId}`);
  const answer = await jsonRpc(asProxy(status.endpoint, platform.rpcKey, id), 'getblockcount');
  return answer.result as number;
}

async function upstreamOf(nodes: TestNodes, id: string): Promise<string | undefined> {
  const status = await nodes.service.driver.status(id);
  return status.state === 'running' ? status.endpoint.url : undefined;
}

/** An instance of the nodes service whose database connections go through a relay the test can cut. */
async function startBehindLink(env: Record<string, string> = {}): Promise<{ nodes: TestNodes; link: BrokerLink }> {
  const link = await BrokerLink.open(platform.databaseUrl!);
  links.push(link);
  const nodes = await platform.startNodes({ DATABASE_URL: link.url, NODE_LEASE_SECONDS: LEASE_SECONDS, ...env });
  return { nodes, link };
}

async function createRunning(nodes: TestNodes): Promise<string> {
  const created = await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'btc' }).expect(200);
  const { id } = created.body as { id: string };
  await waitUntil(
    'the node runs',
    async () => {
      const node = await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken));
      return node.status === 200 && (node.body as { state: string }).state === 'running';
    },
    60_000,
    100,
  );
  return id;
}

describe('a database outage', () => {
  beforeEach(async () => {
    platform = await startTestPlatform({ databaseServerUrl: POSTGRES });
    user = await platform.user();
  });
  afterEach(async () => {
    for (const link of links) await link.restore();
    await platform.close();
    for (const link of links.splice(0)) await link.close();
  });

  it('leaves hosted nodes running and answering; the API answers 503 with Retry-After meanwhile; all is as before once it is back', async () => {
    const { nodes, link } = await startBehindLink();
    const id = await createRunning(nodes);
    const upstream = await upstreamOf(nodes, id);
    expect(upstream).toBeDefined();

    await link.cut();
    // Three leases long: the old rule stopped every node after half of one.
    const heights: number[] = [];
    for (const end = Date.now() + 3 * Number(LEASE_SECONDS) * 1000; Date.now() < end; await sleep(250)) {
      heights.push(await blockCount(nodes, id));
      expect(await upstreamOf(nodes, id)).toBe(upstream);
    }
    expect(heights.at(-1)).toBeGreaterThan(heights[0]!);

    const during = await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken));
    expect(during.status).toBe(503);
    expect(during.headers['retry-after']).toBe('5');
    expect(during.body).toEqual({ code: 'ServiceUnavailable', message: 'a service this one depends on is unavailable; try again shortly' });
    const created = await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'btc' });
    expect([created.status, created.body.code]).toEqual([503, 'ServiceUnavailable']);
    // No traffic for an API that cannot reach its database; alive all the same.
    const ready = await nodes.http.get('/readyz');
    expect([ready.status, ready.body]).toEqual([503, { code: 'NotReady', message: 'database is not available' }]);
    const health = await nodes.http.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', dependencies: { database: 'down', 'message bus': 'up' } });

    await link.restore();
    await waitUntil(
      'the API answers again',
      async () => (await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken))).status === 200,
      15_000,
      100,
    );
    await waitUntil('the instance is ready again', async () => (await nodes.http.get('/readyz')).status === 200, 15_000, 50);
    const node = (await nodes.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
    expect(node.state).toBe('running');
    // The same process throughout: never stopped, so never restarted on another port.
    expect(await upstreamOf(nodes, id)).toBe(upstream);
    expect(await blockCount(nodes, id)).toBeGreaterThanOrEqual(heights.at(-1)!);
    expect(await nodes.service.repository.owners()).toEqual(new Map([[id, nodes.service.instanceId]]));
    // Nothing was created by the refused call.
    const list = (await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken)).expect(200)).body as unknown[];
    expect(list).toHaveLength(1);
  });

  it("stops an instance's copy of a node only once it learns that another instance holds the lease", async () => {
    // Separate node directories, as instances on two machines have.
    const a = await startBehindLink({ NODES_INSTANCE_ID: 'instance-a', LOCAL_NODES_DIR: path.join(platform.dataDir, 'nodes-a') });
    const id = await createRunning(a.nodes);
    const b = await platform.startNodes({
      NODES_INSTANCE_ID: 'instance-b',
      NODE_LEASE_SECONDS: LEASE_SECONDS,
      LOCAL_NODES_DIR: path.join(platform.dataDir, 'nodes-b'),
    });
    expect(await b.service.repository.owners()).toEqual(new Map([[id, 'instance-a']]));

    // Only instance a is cut off: b takes the node once a's lease has run out.
    await a.link.cut();
    await waitUntil('instance b runs the node', async () => (await blockCount(b, id)) >= 0, 30_000, 100);
    expect(await b.service.repository.owners()).toEqual(new Map([[id, 'instance-b']]));
    // a cannot know yet: its copy keeps running.
    expect(await blockCount(a.nodes, id)).toBeGreaterThanOrEqual(0);

    await a.link.restore();
    await waitUntil('instance a has stopped its copy', async () => (await a.nodes.service.driver.status(id)).state === 'absent', 15_000, 100);
    expect(await blockCount(b, id)).toBeGreaterThanOrEqual(0);
    const node = (await b.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
    expect(node.state).toBe('running');
    expect(await b.service.repository.owners()).toEqual(new Map([[id, 'instance-b']]));
  });
});

describe('usage reports during a database outage (issue 29, item 8)', () => {
  // The services' retries, shortened so the outage outlasts them in a few seconds: eight tries
  // over 30 s dead-lettered the usage reports of a 60 s outage.
  const retry: RetryPolicy = { maxAttempts: 3, baseDelayMs: 50, maxDelayMs: 100, outageBaseDelayMs: 100, outageMaxDelayMs: 500 };
  let usagePlatform: TestPlatform;
  let link: BrokerLink | undefined;
  afterEach(async () => {
    await link?.restore();
    await usagePlatform?.close();
    await link?.close();
  });

  it('are stored once when the database is back, however long it was away; none dead-lettered', async () => {
    usagePlatform = await startTestPlatform({ databaseServerUrl: POSTGRES, retry });
    const owner = await usagePlatform.user();
    link = await BrokerLink.open(usagePlatform.databaseUrl!);
    const nodes = await usagePlatform.startNodes({ DATABASE_URL: link.url });
    const { id: nodeId } = (await nodes.http.post('/users/me/nodes').set(bearer(owner.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string };
    const now = usagePlatform.clock();
    const report = message('node.usage', {
      proxyId: 'proxy-test',
      from: new Date(now - 5_000).toISOString(),
      to: new Date(now).toISOString(),
      nodes: [
        {
          nodeId,
          userId: owner.id,
          requests: 7,
          blocked: 0,
          bytesIn: 70,
          bytesOut: 140,
          calls: [{ method: 'eth_blocknumber', outcome: 'ok', calls: 7 }],
          credentials: [],
          cachedCalls: 0,
          members: [],
        },
      ],
    });

    await link.cut();
    await usagePlatform.bus.publish([report]);
    // Ten times as long as the message's tries last.
    const span = retry.baseDelayMs + retry.maxDelayMs;
    await sleep(10 * span + 2_000);
    const bus = usagePlatform.bus as InProcessBus;
    expect(bus.deadLetters('nodes.usage')).toEqual([]);

    await link.restore();
    const total = async () => {
      const answer = await nodes.http.get(`/users/me/nodes/${nodeId}/usage`).set(bearer(owner.clientToken));
      return answer.status === 200 ? (answer.body as { totals: { total: number } }).totals.total : undefined;
    };
    await waitUntil('the report is stored', async () => (await total()) === 7, 30_000, 100);
    const stored = await nodes.service.db('usage_messages').where({ id: report.id }).count({ n: '*' });
    expect(Number(stored[0]!.n)).toBe(1);
    expect(await total()).toBe(7);
    expect(bus.deadLetters('nodes.usage')).toEqual([]);
  });
});
