import { message, type AnyBusMessage, type NodeRoute } from '@cloud/bus';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { PASSWORD } from '@cloud/accounts/testing';
import { bearer, sha256, startTestPlatform, waitUntil, type TestPlatform, type TestUser } from '@cloud/nodes/testing';
import { startTestStaking, type TestStaking } from '../src/testing';
import { listed, startFakeAvalancheNode, type FakeAvalancheNode } from './fake-avalanche-node';

interface Created {
  nodeId: string;
  chainNodeId: string;
  nodeUser: string;
  nodePass: string;
}

interface Registration {
  status: string;
  checkedAt: string;
  reason?: string;
  [field: string]: unknown;
}

const MINUTE = 60_000;
const fuji = '/staking/avalanche/fuji';

// The registration status read from the P-chain through the validator's own node (here a fake
// node whose answers the test sets), as the nodes service announces the node on the bus; and
// the deletion rules that rest on it. Time moves by the platform's clock; client tokens live an
// hour, so each test moves it by less.
describe("a validator's registration on the P-chain", () => {
  let platform: TestPlatform;
  let staking: TestStaking;
  let user: TestUser;
  let node: FakeAvalancheNode;
  const heard: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
    await platform.bus.subscribe({ name: 'staking-registration-test', bindings: ['validator.*'], handle: async (messages) => void heard.push(...messages) });
    staking = await startTestStaking(platform, { MAX_VALIDATORS_PER_USER: '20', STAKING_NODE_TIMEOUT_MS: '500' });
  });
  beforeEach(async () => {
    user = await platform.user();
    node = await startFakeAvalancheNode();
  });
  afterEach(() => node.close());
  afterAll(async () => {
    await staking.close();
    await platform.close();
  });

  const as = () => bearer(user.clientToken);
  const create = async () => (await staking.http.post(`${fuji}/validators`).set(as()).expect(200)).body as Created;
  const getValidator = async (validator: Created) =>
    (await staking.http.get(`${fuji}/validators/${validator.nodeId}`).set(as()).expect(200)).body as {
      state: string;
      nodeUser: string;
      registration: Registration;
    };
  const registrationOf = async (validator: Created) => (await getValidator(validator)).registration;
  const pChainCalls = () => node.calls.filter((call) => call.method === 'platform.getCurrentValidators').length;
  const now = () => platform.clock();

  let revision = 0;
  /** Announces the node as the nodes service would (`node.syncing`, `node.running`, `node.failed`), and waits until the staking service took it. */
  async function announce(
    validator: Created,
    state: 'syncing' | 'running' | 'failed',
    upstream: string | null = node.url,
    extra: Partial<NodeRoute> = {},
  ): Promise<void> {
    revision += 1;
    const route: NodeRoute = {
      nodeId: validator.nodeId,
      userId: user.id,
      image: 'avalanchefuji',
      chain: 'avalanche',
      revision,
      state,
      basic: { user: validator.nodeUser, passwordSha256: sha256(validator.nodePass) },
      upstream: state === 'failed' ? null : upstream,
      ...extra,
    };
    const address = `${validator.nodeId}.nodes.localhost`;
    await platform.bus.publish([
      state === 'failed'
        ? message('node.failed', { ...route, reason: 'avalanchego exited' })
        : message(state === 'running' ? 'node.running' : 'node.syncing', { ...route, address }),
    ]);
    await waitUntil(`the staking service took revision ${revision}`, async () => {
      const row = (await staking.service.db('validators').where({ id: validator.nodeId }).first('node_revision')) as { node_revision: number };
      return row.node_revision === revision;
    });
  }

  it('is starting, saying so plainly, while its node is provisioning', async () => {
    const validator = await create();
    expect(await registrationOf(validator)).toEqual({
      status: 'starting',
      checkedAt: new Date(now()).toISOString(),
      reason: 'its node is provisioning; the P-chain is read once it runs',
    });
    expect(node.calls).toEqual([]);
  });

  it('is starting while its node bootstraps (syncing), without asking it', async () => {
    const validator = await create();
    await announce(validator, 'syncing');
    expect((await getValidator(validator)).state).toBe('syncing');
    expect(await registrationOf(validator)).toEqual({
      status: 'starting',
      checkedAt: new Date(now()).toISOString(),
      reason: 'its node is bootstrapping the P-chain (syncing); it is read once the node runs',
    });
    expect(node.calls).toEqual([]);
  });

  it('says whether it is on a dev chain once its node is announced, in words that never name fuji on a dev chain', async () => {
    const validator = await create();
    expect(await getValidator(validator)).toMatchObject({ dev: null, networkLabel: 'avalanche fuji or a dev chain (not known yet)' });
    await announce(validator, 'syncing', node.url, { dev: true });
    expect(await getValidator(validator)).toMatchObject({ network: 'fuji', dev: true, networkLabel: 'avalanche dev chain (simulated P-chain)' });
    // A route that does not say (from before dev was announced) leaves what is known.
    await announce(validator, 'running');
    expect(await getValidator(validator)).toMatchObject({ dev: true });
    const other = await create();
    await announce(other, 'running', node.url, { dev: false });
    expect(await getValidator(other)).toMatchObject({ dev: false, networkLabel: 'avalanche fuji' });
  });

  it('follows the chain: unregistered, pending, validating, then ended once it is no longer listed', async () => {
    const validator = await create();
    await announce(validator, 'running');
    const running = await getValidator(validator);
    expect(running.state).toBe('running');
    expect(running.registration).toEqual({ status: 'unregistered', checkedAt: new Date(now()).toISOString() });
    // Asked as the node-proxy asks: with the node's internal login, for this NodeID only.
    expect(node.calls.find((call) => call.method === 'platform.getCurrentValidators')).toEqual({
      path: '/ext/bc/P',
      method: 'platform.getCurrentValidators',
      params: { nodeIDs: [validator.chainNodeId] },
      authorization: nodeRpcAuthorization(platform.rpcKey, validator.nodeId),
    });
    expect(node.calls.find((call) => call.method === 'info.isBootstrapped')).toMatchObject({ path: '/ext/info', params: { chain: 'P' } });

    const start = now() + 10 * MINUTE;
    const end = start + 20 * MINUTE;
    node.validators = [listed('NodeID-SomeoneElse111111111111111111111', now(), end), listed(validator.chainNodeId, start, end)];
    platform.clock.advance(10_000); // past the cached answer
    expect(await registrationOf(validator)).toEqual({
      status: 'pending',
      checkedAt: new Date(now()).toISOString(),
      txId: '2QYfFcfZ9ZKHqLSw9bXCzbBfHrG6Xv4ds1ikmAYFKfEuFzHnKG',
      startTime: new Date(Math.floor(start / 1000) * 1000).toISOString(),
      endTime: new Date(Math.floor(end / 1000) * 1000).toISOString(),
      stake: '2000000000000',
      delegatedWeight: '500000000000',
      weight: '2500000000000',
      uptime: 99.5,
      connected: true,
    });

    platform.clock.advance(11 * MINUTE);
    expect(await registrationOf(validator)).toMatchObject({ status: 'validating', weight: '2500000000000', uptime: 99.5 });

    // The chain drops a validator from its list once its period is over; the kept registration says it ended.
    node.validators = [];
    platform.clock.advance(20 * MINUTE);
    expect(await registrationOf(validator)).toEqual({
      status: 'ended',
      checkedAt: new Date(now()).toISOString(),
      txId: '2QYfFcfZ9ZKHqLSw9bXCzbBfHrG6Xv4ds1ikmAYFKfEuFzHnKG',
      startTime: new Date(Math.floor(start / 1000) * 1000).toISOString(),
      endTime: new Date(Math.floor(end / 1000) * 1000).toISOString(),
      stake: '2000000000000',
    });
  });

  it("reuses a node's answer for STAKING_STATUS_CACHE_MS, by the service's clock", async () => {
    const validator = await create();
    await announce(validator, 'running');
    await registrationOf(validator);
    await registrationOf(validator);
    await staking.http.get(`${fuji}/validators`).set(as()).expect(200);
    expect(pChainCalls()).toBe(1);
    platform.clock.advance(9_999);
    await registrationOf(validator);
    expect(pChainCalls()).toBe(1);
    platform.clock.advance(1);
    await registrationOf(validator);
    expect(pChainCalls()).toBe(2);
  });

  it.each([
    ['the node is unreachable', async (n: FakeAvalancheNode) => n.close(), /^the node could not be reached \(ECONNREFUSED\)$/],
    ['the node does not answer in time', (n: FakeAvalancheNode) => void (n.silent = true), /^the node did not answer within 500 ms$/],
    ['the node has not bootstrapped the P-chain', (n: FakeAvalancheNode) => void (n.bootstrapped = false), /^the node is still bootstrapping the P-chain$/],
    ['the answer is malformed', (n: FakeAvalancheNode) => void (n.validators = { raw: { validators: 'many' } }), /malformed/],
    ['its listing is malformed', (n: FakeAvalancheNode, nodeId: string) => void (n.validators = [{ ...listed(nodeId, 0, 0), startTime: 'soon' }]), /malformed/],
  ])('is unknown, without failing the call, when %s', async (_what, breakIt, reason) => {
    const validator = await create();
    await announce(validator, 'running');
    await breakIt(node, validator.chainNodeId);
    const registration = await registrationOf(validator);
    expect(registration).toEqual({ status: 'unknown', checkedAt: expect.any(String), reason: expect.stringMatching(reason) });
  });

  describe('deletion', () => {
    const remove = (validator: Created) => staking.http.delete(`${fuji}/validators/${validator.nodeId}`).set(as());
    const deletedHeard = (validator: Created) => heard.filter((each) => each.kind === 'validator.deleted' && each.payload.nodeId === validator.nodeId);

    it('is refused while the validator is pending or validating, reading the chain afresh', async () => {
      const validator = await create();
      await announce(validator, 'running');
      expect((await registrationOf(validator)).status).toBe('unregistered');

      // Registered since the (cached) answer above: the deletion does not trust the cache.
      const end = now() + 30 * MINUTE;
      node.validators = [listed(validator.chainNodeId, now() + 5 * MINUTE, end)];
      const pending = await remove(validator);
      expect(pending.status).toBe(409);
      expect(pending.body).toEqual({ code: 'Conflict', message: expect.stringContaining(`until ${new Date(Math.floor(end / 1000) * 1000).toISOString()}`) });

      platform.clock.advance(6 * MINUTE);
      const validating = await remove(validator);
      expect(validating.status).toBe(409);
      expect(validating.body.message).toMatch(/validating .* can't be removed early/);
      expect((await getValidator(validator)).registration.status).toBe('validating');
    });

    it("is refused while the chain can't be read, if the node has not failed or a registration seen before has not ended", async () => {
      const validator = await create();
      const provisioning = await remove(validator);
      expect(provisioning.status).toBe(409);
      expect(provisioning.body.message).toMatch(/is starting \(its node is provisioning; .*\): whether its stake is locked is known once/);

      await announce(validator, 'running');
      const end = now() + 30 * MINUTE;
      node.validators = [listed(validator.chainNodeId, now() - MINUTE, end)];
      expect((await registrationOf(validator)).status).toBe('validating');
      await node.close();
      platform.clock.advance(10_000);
      expect(await registrationOf(validator)).toMatchObject({ status: 'unknown', endTime: new Date(Math.floor(end / 1000) * 1000).toISOString() });
      const unreachable = await remove(validator);
      expect(unreachable.status).toBe(409);
      expect(unreachable.body.message).toMatch(/was seen registered on the P-chain until .* can't be read now/);

      // A failed node validates nothing, but the stake seen locked stays locked until its end.
      await announce(validator, 'failed');
      expect((await getValidator(validator)).state).toBe('failed');
      expect((await remove(validator)).status).toBe(409);
      platform.clock.advance(30 * MINUTE);
      expect((await remove(validator)).status).toBe(200);
    });

    it('is allowed for a failed node never seen registered', async () => {
      const validator = await create();
      await announce(validator, 'failed');
      const deleted = await remove(validator);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ nodeId: validator.nodeId, state: 'failed', stateReason: 'avalanchego exited', registration: { status: 'unknown' } });
    });

    it('is allowed when unregistered or ended; then the validator is gone (404) and its node is deleted', async () => {
      const unregistered = await create();
      await announce(unregistered, 'running');
      const deleted = await remove(unregistered);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ nodeId: unregistered.nodeId, chainNodeId: unregistered.chainNodeId, registration: { status: 'unregistered' } });
      expect((await remove(unregistered)).status).toBe(404);
      expect((await staking.http.get(`${fuji}/validators/${unregistered.nodeId}`).set(as())).status).toBe(404);
      await waitUntil('validator.deleted is heard', () => deletedHeard(unregistered).length === 1, 10_000);
      expect(deletedHeard(unregistered).map((each) => each.payload)).toEqual([{ nodeId: unregistered.nodeId, userId: user.id }]);
      await expect(platform.bus.request('staking.validator-tls', { nodeId: unregistered.nodeId })).rejects.toThrow(`no validator ${unregistered.nodeId}`);
      const row = (await staking.service.db('validators').where({ id: unregistered.nodeId }).first('deleted_at')) as { deleted_at: Date | null };
      expect(row.deleted_at).not.toBeNull();

      const ended = await create();
      await announce(ended, 'running');
      node.validators = [listed(ended.chainNodeId, now() - MINUTE, now() + MINUTE)];
      expect((await registrationOf(ended)).status).toBe('validating');
      node.validators = [];
      platform.clock.advance(2 * MINUTE);
      expect((await remove(ended)).body).toMatchObject({ registration: { status: 'ended' } });
    });
  });

  it('ignores older news of a node, and nodes that are not validators', async () => {
    const validator = await create();
    const probe = await create();
    await announce(validator, 'running');
    const before = (await staking.service.db('validators').where({ id: validator.nodeId }).first('node_state', 'node_revision', 'upstream_url')) as Record<
      string,
      unknown
    >;
    const stale: NodeRoute = {
      nodeId: validator.nodeId,
      userId: user.id,
      image: 'avalanchefuji',
      chain: 'avalanche',
      revision: revision - 1,
      state: 'deleting',
      basic: null,
      upstream: null,
    };
    const other: NodeRoute = { ...stale, nodeId: 'node-00000000-0000-4000-8000-000000000001', image: 'eth', chain: 'eth', revision: 5 };
    await platform.bus.publish([message('node.deleting', stale), message('node.deleting', other)]);
    // Messages of the queue are handled in order: once the probe's is in, so are those before it.
    await announce(probe, 'running');
    expect(await staking.service.db('validators').where({ id: validator.nodeId }).first('node_state', 'node_revision', 'upstream_url')).toEqual(before);
    expect(await staking.service.db('validators').where({ id: other.nodeId }).first()).toBeUndefined();
  });

  it("shows the node's Basic user the nodes service last announced", async () => {
    const validator = await create();
    await announce(validator, 'running');
    revision += 1;
    const route: NodeRoute = {
      nodeId: validator.nodeId,
      userId: user.id,
      image: 'avalanchefuji',
      chain: 'avalanche',
      revision,
      state: 'running',
      basic: { user: 'u00000000000000ff', passwordSha256: sha256('rotated') },
      upstream: node.url,
    };
    await platform.bus.publish([message('node.credentials-changed', route)]);
    await waitUntil('the new user is shown', async () => (await getValidator(validator)).nodeUser === 'u00000000000000ff');
  });

  it('forgets the validators of a deleted user', async () => {
    const validator = await create();
    await platform.accounts.http.delete('/users/me').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(204);
    await waitUntil(
      "the user's validators are deleted",
      async () => {
        const row = (await staking.service.db('validators').where({ id: validator.nodeId }).first('deleted_at')) as { deleted_at: Date | null };
        return row.deleted_at !== null;
      },
      15_000,
      50,
    );
    await expect(platform.bus.request('staking.validator-tls', { nodeId: validator.nodeId })).rejects.toThrow('no validator');
    expect((await staking.http.get(`${fuji}/validators`).set(as())).status).toBe(401);
  });
});
