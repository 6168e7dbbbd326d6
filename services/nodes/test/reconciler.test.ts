import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AnyBusMessage } from '@cloud/bus';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { MovableDriver } from './movable-driver';
import { isAlive } from '../src/drivers/local/processes';
import { asProxy, jsonRpc, recordedPid } from './rpc-client';

let platform: TestPlatform;

async function runningEndpoint(nodes: TestNodes, id: string) {
  const status = await nodes.service.driver.status(id);
  if (status.state !== 'running') throw new Error(`${id} is ${status.state} at ${nodes.service.instanceId}`);
  return asProxy(status.endpoint, platform.rpcKey, id);
}

async function blockCount(nodes: TestNodes, id: string): Promise<number> {
  const answer = await jsonRpc(await runningEndpoint(nodes, id), 'getblockcount');
  return answer.result as number;
}

async function createRunning(nodes: TestNodes, user: TestUser, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'btc' }).expect(200);
    ids.push((created.body as { id: string }).id);
  }
  await waitUntil(
    `${count} nodes run`,
    async () => {
      const list = (await nodes.http.get('/users/me/nodes').set(bearer(user.clientToken)).expect(200)).body as Array<{ state: string }>;
      return list.length === count && list.every((node) => node.state === 'running');
    },
    60_000,
    100,
  );
  return ids;
}

describe('the reconciler', () => {
  let user: TestUser;

  beforeEach(async () => {
    platform = await startTestPlatform();
    user = await platform.user();
  });
  afterEach(() => platform.close());

  it('keeps a running node across a clean restart of the nodes service: the same process, answering while no instance runs (issue 29, item 6)', async () => {
    const first = await platform.startNodes({ STOP_NODES_ON_SHUTDOWN: 'false' });
    const [id] = await createRunning(first, user, 1);
    await waitUntil('a few blocks are mined', async () => (await blockCount(first, id!)) >= 3, 20_000, 200);
    const endpoint = await runningEndpoint(first, id!);
    const pid = await recordedPid(path.join(platform.dataDir, 'nodes'), id!);
    await first.close();

    // Stopped on purpose (an upgrade, a configuration change): the node is not.
    expect(isAlive(pid)).toBe(true);
    const height = (await jsonRpc(endpoint, 'getblockcount')).result as number;
    const second = await platform.startNodes();
    await waitUntil('the second instance runs the node', async () => (await second.service.driver.status(id!)).state === 'running', 30_000, 100);
    expect(await second.service.repository.owners()).toEqual(new Map([[id, second.service.instanceId]]));
    expect(await recordedPid(path.join(platform.dataDir, 'nodes'), id!)).toBe(pid);
    expect((await runningEndpoint(second, id!)).url).toBe(endpoint.url);
    expect(await blockCount(second, id!)).toBeGreaterThanOrEqual(height);
    const node = (await second.http.get(`/users/me/nodes/${id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
    expect(node.state).toBe('running');
    expect((await second.service.driver.logs(id!, 100)).join('\n')).toContain(`pid ${pid}, left running by an earlier instance`);
  });

  it("with two instances, gives each node one owner, and hands an instance's nodes over when it stops", async () => {
    const a = await platform.startNodes({ NODES_INSTANCE_ID: 'instance-a' });
    const b = await platform.startNodes({ NODES_INSTANCE_ID: 'instance-b' });
    const ids = await createRunning(a, user, 4);

    const owners = await a.service.repository.owners();
    for (const id of ids) {
      const owner = owners.get(id);
      expect(['instance-a', 'instance-b']).toContain(owner);
      const [running, idle] = owner === 'instance-a' ? [a, b] : [b, a];
      // One process per node: the owner runs it, the other instance does not.
      expect(await blockCount(running, id)).toBeGreaterThanOrEqual(0);
      expect(await idle.service.driver.status(id)).toEqual({ state: 'absent' });
    }

    await a.close();
    await waitUntil(
      'instance b owns and runs every node',
      async () => {
        const now = await b.service.repository.owners();
        for (const id of ids) {
          if (now.get(id) !== 'instance-b') return false;
          await blockCount(b, id);
        }
        return true;
      },
      60_000,
      200,
    );
    const states = (await b.http.get('/users/me/nodes').set(bearer(user.clientToken)).expect(200)).body as Array<{ state: string }>;
    expect(states.map((node) => node.state)).toEqual(['running', 'running', 'running', 'running']);
  }, 180_000);

  /** Collects the node's lifecycle messages from the bus. */
  async function hear(nodeMessages: AnyBusMessage[]): Promise<void> {
    await platform.bus.subscribe({
      name: 'reconciler-test',
      bindings: ['node.*'],
      handle: async (messages) => {
        nodeMessages.push(...messages);
      },
    });
  }

  async function nodeRow(nodes: TestNodes, id: string) {
    return (await nodes.service.db('nodes').where({ id }).first('state', 'revision', 'upstream_url')) as {
      state: string;
      revision: number;
      upstream_url: string | null;
    };
  }

  /** An eth node running on a driver whose upstream URL and failure the test sets. */
  async function runningOnMovableDriver() {
    const driver = new MovableDriver('http://10.1.0.1:40001');
    const nodes = await platform.startNodes({}, driver);
    const created = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string };
    await waitUntil('the node runs', async () => (await nodeRow(nodes, created.id)).state === 'running', 10_000, 50);
    return { driver, nodes, created };
  }

  it('announces a running node again, at a higher revision, when its upstream moves', async () => {
    const heard: AnyBusMessage[] = [];
    await hear(heard);
    const { driver, nodes, created } = await runningOnMovableDriver();
    const running = await nodeRow(nodes, created.id);
    expect(running.upstream_url).toBe('http://10.1.0.1:40001');

    driver.url = 'http://10.1.0.2:40002';
    await waitUntil('the new upstream is stored', async () => (await nodeRow(nodes, created.id)).upstream_url === 'http://10.1.0.2:40002', 10_000, 50);
    // Several passes later, nothing more changed: an unmoved node is not announced again.
    await sleep(1000);
    expect(await nodeRow(nodes, created.id)).toEqual({ state: 'running', revision: running.revision + 1, upstream_url: 'http://10.1.0.2:40002' });

    await waitUntil('both announcements are heard', () => heard.filter((each) => each.kind === 'node.running').length === 2, 10_000);
    const announced = heard.filter((each) => each.kind === 'node.running').map((each) => each.payload);
    expect(announced).toEqual([
      expect.objectContaining({
        nodeId: created.id,
        state: 'running',
        revision: running.revision,
        upstream: 'http://10.1.0.1:40001',
        address: `${created.id}.nodes.localhost`,
      }),
      expect.objectContaining({
        nodeId: created.id,
        state: 'running',
        revision: running.revision + 1,
        upstream: 'http://10.1.0.2:40002',
        address: `${created.id}.nodes.localhost`,
      }),
    ]);
    expect(heard.map((each) => each.kind)).toEqual(['node.created', 'node.running', 'node.running']);
  });

  it('moves a node that answers but is behind to syncing (announced with its upstream), then to running; it stays running when it falls behind', async () => {
    const heard: AnyBusMessage[] = [];
    await hear(heard);
    const driver = new MovableDriver('http://10.1.0.1:40001');
    const reading = (height: number, syncing: boolean) => ({ height, bestKnownHeight: 300, progress: height / 300, peers: 2, syncing, checkedAt: new Date() });
    driver.sync = reading(0, true);
    const nodes = await platform.startNodes({}, driver);
    const created = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string };
    const getNode = async () =>
      (await nodes.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string; sync: unknown };

    await waitUntil('the node syncs', async () => (await getNode()).state === 'syncing', 10_000, 50);
    driver.sync = reading(150, true);
    await waitUntil(
      'its progress is stored',
      async () => (await getNode()).sync !== null && ((await getNode()).sync as { height: number }).height === 150,
      10_000,
      50,
    );
    expect(await getNode()).toMatchObject({ state: 'syncing', sync: { height: 150, bestKnownHeight: 300, progress: 0.5, peers: 2, syncing: true } });

    driver.sync = reading(300, false);
    await waitUntil('the node runs', async () => (await getNode()).state === 'running', 10_000, 50);
    driver.sync = reading(299, true);
    await waitUntil('the new reading is stored', async () => ((await getNode()).sync as { height: number }).height === 299, 10_000, 50);
    expect(await getNode()).toMatchObject({ state: 'running', sync: { syncing: true } });

    await waitUntil('both announcements are heard', () => heard.length >= 3, 10_000);
    await sleep(500); // nothing more comes: sync readings are not route changes
    expect(heard.map((each) => [each.kind, (each.payload as { state: string }).state, (each.payload as { upstream: string | null }).upstream])).toEqual([
      ['node.created', 'provisioning', null],
      ['node.syncing', 'syncing', 'http://10.1.0.1:40001'],
      ['node.running', 'running', 'http://10.1.0.1:40001'],
    ]);
  });

  it('drops the upstream of a node that fails', async () => {
    const heard: AnyBusMessage[] = [];
    await hear(heard);
    const { driver, nodes, created } = await runningOnMovableDriver();

    driver.failure = 'exited with code 1';
    await waitUntil('the node has failed', async () => (await nodeRow(nodes, created.id)).state === 'failed', 10_000, 50);
    expect((await nodeRow(nodes, created.id)).upstream_url).toBeNull();
    await waitUntil('node.failed is heard', () => heard.some((each) => each.kind === 'node.failed'), 10_000);
    expect(heard.find((each) => each.kind === 'node.failed')?.payload).toMatchObject({
      nodeId: created.id,
      state: 'failed',
      upstream: null,
      reason: 'exited with code 1',
    });
  });

  it('fails a node whose software this instance cannot run, saying why', async () => {
    const first = await platform.startNodes();
    const created = (await first.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string };
    await first.close();

    // Restarted with anvil configured to a path where there is none.
    const second = await platform.startNodes({ ANVIL_PATH: '/nonexistent/anvil' });
    await waitUntil(
      'the node has failed',
      async () => {
        const node = (await second.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200)).body as { state: string };
        return node.state === 'failed';
      },
      30_000,
      100,
    );
    const node = (await second.http.get(`/users/me/nodes/${created.id}`).set(bearer(user.clientToken)).expect(200)).body as { stateReason: string };
    expect(node.stateReason).toBe('no software on this machine runs eth nodes');
    const chains = (await second.http.get('/chains').set(bearer(user.clientToken)).expect(200)).body as Array<{ image: string }>;
    expect(chains.map((option) => option.image)).not.toContain('eth');
    expect(await second.service.repository.owners()).toEqual(new Map([[created.id, null]]));
  });
});
