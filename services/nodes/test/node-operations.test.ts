import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { message, type AnyBusMessage } from '@cloud/bus';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';
import { asProxy, blockHeight, jsonRpc } from './rpc-client';

interface NodeBody {
  id: string;
  state: string;
  large: boolean;
  address: string;
  nodeUser?: string;
  nodePass?: string;
}

interface NodeRow {
  state: string;
  large: boolean;
  revision: number;
  owner: string | null;
  upstream_url: string | null;
  credentials: unknown;
  start_after_stop: boolean;
}

// Stop, start, restart and resize through the nodes API, on the local driver (btc on the dev
// chain: quick). What each answers, what it stores, what it announces on the bus, and that the
// node's chain and credentials survive. The proxy side (503 NodeStopped) and Litecoin Core are
// in services/node-proxy/test/proxy-node-operations.test.ts.
describe('node operations', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let alice: TestUser;
  let bob: TestUser;
  let node: NodeBody;
  const heard: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
    await platform.bus.subscribe({ name: 'node-operations-test', bindings: ['node.*'], handle: (messages) => Promise.resolve(void heard.push(...messages)) });
    nodes = await platform.startNodes();
    [alice, bob] = [await platform.user(), await platform.user()];
    node = (await nodes.http.post('/users/me/nodes').set(bearer(alice.clientToken)).send({ image: 'btc' }).expect(200)).body as NodeBody;
    await untilState('running');
  }, 180_000);
  afterAll(() => platform.close());

  const asAlice = () => bearer(alice.clientToken);
  // Everything but the lease's expiry, which each reconciler pass renews.
  const COLUMNS = ['state', 'large', 'revision', 'owner', 'upstream_url', 'credentials', 'start_after_stop'];
  const row = async (id = node.id) => (await nodes.service.db('nodes').where({ id }).first(COLUMNS)) as NodeRow;
  const get = async () => (await nodes.http.get(`/users/me/nodes/${node.id}`).set(asAlice()).expect(200)).body as NodeBody;
  async function untilState(state: string): Promise<void> {
    await waitUntil(`node ${node.id} to be ${state}`, async () => (await get()).state === state, 60_000, 100);
  }
  const height = async () => {
    const status = await nodes.service.driver.status(node.id);
    if (status.state !== 'running') throw new Error(`the node is ${status.state}`);
    return blockHeight(asProxy(status.endpoint, platform.rpcKey, node.id), 'bitcoin');
  };
  const messagesOf = (kind: string) => heard.filter((each) => each.kind === kind && (each.payload as { nodeId: string }).nodeId === node.id);

  it('stops a node: stopping at once, then stopped, with nothing running, its data and credentials kept', async () => {
    await waitUntil('a few blocks', async () => (await height()) >= 3, 20_000, 200);
    const before = await row();
    const stopping = await nodes.http.post(`/users/me/nodes/${node.id}/stop`).set(asAlice()).expect(200);
    expect(stopping.body).toMatchObject({ id: node.id, state: 'stopping', address: node.address });
    expect(stopping.body).not.toHaveProperty('nodePass');
    await untilState('stopped');
    const after = await row();
    expect(after).toMatchObject({ state: 'stopped', owner: null, upstream_url: null, credentials: before.credentials });
    expect(after.revision).toBe(before.revision + 2);
    expect(await nodes.service.driver.status(node.id)).toEqual({ state: 'absent' });
    await waitUntil('node.stopping and node.stopped on the bus', () => messagesOf('node.stopped').length === 1, 10_000);
    expect(messagesOf('node.stopping')[0]?.payload).toMatchObject({ state: 'stopping', upstream: null, revision: before.revision + 1 });
    expect(messagesOf('node.stopped')[0]?.payload).toMatchObject({ state: 'stopped', upstream: null, revision: before.revision + 2 });
  });

  it('answers 409 to an operation that does not apply to the node’s state, and changes nothing', async () => {
    const before = await row();
    for (const operation of ['stop', 'restart']) {
      const response = await nodes.http.post(`/users/me/nodes/${node.id}/${operation}`).set(asAlice());
      expect([operation, response.status, response.body]).toEqual([
        operation,
        409,
        { code: 'Conflict', message: expect.stringMatching(`^node ${node.id} is stopped; ${operation} applies to a node that is provisioning, .*running`) },
      ]);
    }
    expect(await row()).toEqual(before);
  });

  it('resizes a stopped node by recording it only', async () => {
    const before = await row();
    const resized = await nodes.http.patch(`/users/me/nodes/${node.id}`).set(asAlice()).send({ large: true }).expect(200);
    expect(resized.body).toMatchObject({ state: 'stopped', large: true });
    expect(await row()).toMatchObject({ state: 'stopped', large: true, revision: before.revision + 1, start_after_stop: false });
    // The same class again changes nothing.
    await nodes.http.patch(`/users/me/nodes/${node.id}`).set(asAlice()).send({ large: true }).expect(200);
    expect((await row()).revision).toBe(before.revision + 1);
  });

  it('starts it again on its kept chain, with the same derived login, announcing its new upstream', async () => {
    const stoppedAt = messagesOf('node.stopped').length;
    const starting = await nodes.http.post(`/users/me/nodes/${node.id}/start`).set(asAlice()).send({}).expect(200);
    expect(starting.body).toMatchObject({ state: 'provisioning', large: true });
    await untilState('running');
    expect(await height()).toBeGreaterThanOrEqual(3);
    const running = messagesOf('node.running').at(-1)?.payload as { upstream: string; state: string };
    expect(running).toMatchObject({ state: 'running', upstream: (await row()).upstream_url });
    expect(messagesOf('node.starting')).toHaveLength(1);
    expect(messagesOf('node.stopped')).toHaveLength(stoppedAt);
    const again = await nodes.http.post(`/users/me/nodes/${node.id}/start`).set(asAlice());
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'Conflict', message: `node ${node.id} is running; start applies to a node that is stopped, failed` });
  });

  it('resizes a running node by restarting it with the new class, keeping its chain', async () => {
    const before = await height();
    const resized = await nodes.http.patch(`/users/me/nodes/${node.id}`).set(asAlice()).send({ large: false }).expect(200);
    expect(resized.body).toMatchObject({ state: 'stopping', large: false });
    expect(await row()).toMatchObject({ state: 'stopping', large: false, start_after_stop: true });
    await untilState('running');
    expect(await height()).toBeGreaterThanOrEqual(before);
    expect(await row()).toMatchObject({ state: 'running', large: false, start_after_stop: false });
  });

  it('restarts a running node: stopping, then running again on the same chain', async () => {
    const before = await height();
    const startsBefore = messagesOf('node.starting').length;
    const restarting = await nodes.http.post(`/users/me/nodes/${node.id}/restart`).set(asAlice()).expect(200);
    expect(restarting.body).toMatchObject({ state: 'stopping' });
    await untilState('running');
    expect(await height()).toBeGreaterThanOrEqual(before);
    expect(messagesOf('node.starting')).toHaveLength(startsBefore + 1);
    const answer = await jsonRpc(asProxy({ url: (await row()).upstream_url! }, platform.rpcKey, node.id), 'getblockcount');
    expect(answer.result).toBeGreaterThanOrEqual(before);
  });

  describe('bad input', () => {
    it.each([
      ['neither large nor name', {}, /^body: give large, name or both$/],
      ['a string for large', { large: 'yes' }, /body\.large: must be true or false/],
      ['an unknown field', { large: true, image: 'eth' }, /image/],
    ])('answers a resize with %s 400 InvalidInput naming the field, and changes nothing', async (_what, body, mentions) => {
      const before = await row();
      const response = await nodes.http.patch(`/users/me/nodes/${node.id}`).set(asAlice()).send(body);
      expect([response.status, response.body]).toEqual([400, { code: 'InvalidInput', message: expect.stringMatching(mentions) }]);
      expect(await row()).toEqual(before);
    });

    it('answers a stop with a body 400, and changes nothing', async () => {
      const before = await row();
      const response = await nodes.http.post(`/users/me/nodes/${node.id}/stop`).set(asAlice()).send({ force: true });
      expect([response.status, response.body]).toEqual([400, { code: 'InvalidInput', message: expect.stringMatching(/force/) }]);
      expect(await row()).toEqual(before);
    });
  });

  it('answers 404 for another user’s node or no node, and leaves the node alone', async () => {
    const before = await row();
    for (const id of [node.id, 'node-00000000-0000-4000-8000-000000000000']) {
      for (const call of [
        nodes.http.post(`/users/me/nodes/${id}/stop`),
        nodes.http.post(`/users/me/nodes/${id}/start`),
        nodes.http.post(`/users/me/nodes/${id}/restart`),
        nodes.http.patch(`/users/me/nodes/${id}`).send({ large: true }),
      ]) {
        const response = await call.set(bearer(bob.clientToken));
        expect([response.status, response.body]).toEqual([404, { code: 'NotFound', message: `no node ${id}` }]);
      }
    }
    expect(await row()).toEqual(before);
  });

  it('refuses to operate a validator’s node with 409: the staking service manages it', async () => {
    const validatorId = 'node-11111111-1111-4111-8111-111111111111';
    await platform.bus.publish([
      message('validator.created', {
        nodeId: validatorId,
        userId: alice.id,
        image: 'avalanchefuji',
        basic: { user: 'uvalidator02', passwordSha256: sha256('x') },
      }),
    ]);
    await waitUntil('the validator node exists', async () => (await row(validatorId)) !== undefined, 10_000);
    const before = await row(validatorId);
    for (const call of [
      nodes.http.post(`/users/me/nodes/${validatorId}/stop`),
      nodes.http.post(`/users/me/nodes/${validatorId}/restart`),
      nodes.http.patch(`/users/me/nodes/${validatorId}`).send({ large: true }),
    ]) {
      const response = await call.set(asAlice());
      expect([response.status, response.body]).toEqual([409, { code: 'Conflict', message: expect.stringContaining('which the staking service manages') }]);
    }
    expect((await row(validatorId)).large).toBe(before.large);
  });

  it('records each operation as an event at the accounts service', async () => {
    await nodes.service.recorder.drain();
    await waitUntil(
      'the operations are in the event list',
      async () => {
        const events = (await platform.accounts.http.get('/users/me/events?service=cloud-nodes&limit=500').set(bearer(alice.accountToken)).expect(200))
          .body as Array<{
          input: { method: string; route: string; resourceId?: string };
          output: { httpStatusCode: number };
        }>;
        const has = (method: string, route: string, status: number) =>
          events.some(
            (event) =>
              event.input.method === method && event.input.route === route && event.input.resourceId === node.id && event.output.httpStatusCode === status,
          );
        return (
          has('POST', '/users/me/nodes/:id/stop', 200) &&
          has('POST', '/users/me/nodes/:id/stop', 409) &&
          has('POST', '/users/me/nodes/:id/start', 200) &&
          has('POST', '/users/me/nodes/:id/restart', 200) &&
          has('PATCH', '/users/me/nodes/:id', 200)
        );
      },
      15_000,
      100,
    );
  });
});

// A failed node runs nowhere; starting it tries again on its kept data (once its cause is fixed),
// and stopping it settles it as stopped. Litecoin Core behind a switch that makes it fail.
describe('operations on a failed node', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchable-litecoind-'));
  const broken = path.join(dir, 'BROKEN');
  const litecoind = path.join(dir, 'litecoind');
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;

  beforeAll(async () => {
    const real = ['/usr/bin/litecoind', '/usr/local/bin/litecoind'].find((candidate) => existsSync(candidate)) ?? 'litecoind';
    writeFileSync(
      litecoind,
      `#!/bin/sh\ncase "$1" in -version|--version) exec ${real} "$@";; esac\nif [ -e ${broken} ]; then echo "Error: the switch says broken" >&2; exit 1; fi\nexec ${real} "$@"\n`,
      { mode: 0o755 },
    );
    writeFileSync(broken, '');
    platform = await startTestPlatform();
    nodes = await platform.startNodes({ LITECOIND_PATH: litecoind });
    user = await platform.user();
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops a failed node, then starts it on the fixed software', async () => {
    const auth = () => bearer(user.clientToken);
    const created = (await nodes.http.post('/users/me/nodes').set(auth()).send({ image: 'ltc' }).expect(200)).body as NodeBody;
    const read = async () => (await nodes.http.get(`/users/me/nodes/${created.id}`).set(auth()).expect(200)).body as NodeBody & { stateReason: string | null };
    await waitUntil('the node to fail', async () => (await read()).state === 'failed', 60_000, 100);
    expect((await read()).stateReason).toContain('the switch says broken');

    expect((await nodes.http.post(`/users/me/nodes/${created.id}/stop`).set(auth()).expect(200)).body).toMatchObject({ state: 'stopping', stateReason: null });
    await waitUntil('the node to be stopped', async () => (await read()).state === 'stopped', 30_000, 100);

    rmSync(broken);
    expect((await nodes.http.post(`/users/me/nodes/${created.id}/start`).set(auth()).expect(200)).body).toMatchObject({ state: 'provisioning' });
    await waitUntil('the node to run', async () => (await read()).state === 'running', 60_000, 100);
    const status = await nodes.service.driver.status(created.id);
    if (status.state !== 'running') throw new Error(`the driver has the node ${status.state}`);
    expect((await jsonRpc(asProxy(status.endpoint, platform.rpcKey, created.id), 'getblockchaininfo')).result).toMatchObject({ chain: 'regtest' });
  }, 120_000);
});
