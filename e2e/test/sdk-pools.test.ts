import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { CloudClient, InvalidInputError, LimitExceededError, NotFoundError, poolHealth, type Node } from '@cloud/sdk';

// The SDK's pools against the real services (issue 31): create (the credential in that answer
// only), list, get, update, usage, the pool's own credentials and access rules, remove; and the
// API's refusals as the SDK's typed errors.

const PASSWORD = 'correct horse 42';

describe('cloud.pools against the platform', () => {
  let platform: TestPlatform;
  let cloud: CloudClient;
  let eth: Node[];
  let ltc: Node;

  beforeAll(async () => {
    platform = await startTestPlatform({ MAX_POOLS_PER_USER: '1' });
    cloud = new CloudClient({
      accountsUrl: platform.urls.accounts,
      nodesUrl: platform.urls.nodes,
      stakingUrl: platform.urls.staking,
      proxy: { ca: platform.proxy.certificate },
    });
    await cloud.accounts.signUp({ email: 'pools@example.com', password: PASSWORD, displayName: 'Ada' });
    const { userId, token } = await platform.verificationFor('pools@example.com');
    await cloud.accounts.verify(userId, token);
    await cloud.login('pools@example.com', PASSWORD);
    eth = [await cloud.nodes.create({ image: 'eth', name: 'one' }), await cloud.nodes.create({ image: 'eth' })];
    ltc = await cloud.nodes.create({ image: 'ltc' });
  }, 120_000);
  afterAll(() => platform?.stop());

  it('creates, reads, changes and removes a pool; its credential is in the creation answer only', async () => {
    const created = await cloud.pools.create({ name: 'payments', members: eth.map((node) => node.id) });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^pool-/),
      name: 'payments',
      image: 'eth',
      dev: true,
      maxLagBlocks: 5,
      members: [
        { nodeId: eth[0]!.id, name: 'one' },
        { nodeId: eth[1]!.id, name: null },
      ],
      endpoints: { jsonRpc: expect.stringMatching(/^https?:\/\/127\.0\.0\.1:\d+\/$/) },
      nodeUser: expect.any(String),
      nodePass: expect.any(String),
    });
    const read = await cloud.pools.get(created.id);
    expect(read.nodePass).toBeUndefined();
    expect((await cloud.pools.list()).map((pool) => pool.id)).toEqual([created.id]);
    expect(poolHealth(read).members.map((member) => member.nodeId)).toEqual(eth.map((node) => node.id));

    const changed = await cloud.pools.update(created.id, { members: [eth[1]!.id], maxLagBlocks: 0 });
    expect(changed).toMatchObject({ maxLagBlocks: 0, members: [{ nodeId: eth[1]!.id }] });
    expect((await cloud.pools.get(created.id)).members).toHaveLength(1);

    // The pool's own credentials and rules, as a node's.
    expect((await cloud.pools.credentials(created.id)).map((each) => [each.name, each.kind])).toEqual([['default', 'basic']]);
    const token = await cloud.pools.createCredential(created.id, { name: 'ci', kind: 'token' });
    expect(token).toMatchObject({ name: 'ci', kind: 'token', token: expect.stringMatching(/^nt_/) });
    const rotated = await cloud.pools.rotateCredential(created.id, token.id);
    expect(rotated).toMatchObject({ id: token.id, kind: 'token' });
    expect((await cloud.pools.removeCredential(created.id, token.id)).map((each) => each.name)).toEqual(['default']);
    const ruled = await cloud.pools.setAccess(created.id, { refusedMethods: ['eth_sendRawTransaction'] });
    expect(ruled.id).toBe(created.id);
    expect((await cloud.pools.access(created.id)).refusedMethods).toEqual(['eth_sendrawtransaction']);

    const usage = await cloud.pools.usage(created.id, { granularity: 'hour' });
    expect(usage).toMatchObject({ nodeId: created.id, granularity: 'hour', totals: { total: 0 } });

    expect(await cloud.pools.remove(created.id)).toEqual({ id: created.id, deleted: true });
    await expect(cloud.pools.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await cloud.nodes.get(eth[0]!.id)).state).not.toBe('deleting');
  });

  it("throws the API's refusals as typed errors", async () => {
    const mixed = await cloud.pools.create({ name: 'mixed', members: [eth[0]!.id, ltc.id] }).catch((error: unknown) => error);
    expect(mixed).toBeInstanceOf(InvalidInputError);
    expect(mixed).toMatchObject({ status: 400, code: 'InvalidInput', message: expect.stringContaining(ltc.id) });
    const twice = await cloud.pools.create({ name: 'twice', members: [eth[0]!.id, eth[0]!.id] }).catch((error: unknown) => error);
    expect(twice).toBeInstanceOf(InvalidInputError);

    await cloud.pools.create({ name: 'first', members: [eth[0]!.id] });
    // MAX_POOLS_PER_USER=1 here.
    const over = await cloud.pools.create({ name: 'second', members: [eth[1]!.id] }).catch((error: unknown) => error);
    expect(over).toBeInstanceOf(LimitExceededError);
    expect(over).toMatchObject({ status: 403, code: 'LimitExceeded' });
    expect((await cloud.pools.list()).map((pool) => pool.name)).toEqual(['first']);

    await expect(cloud.pools.get('pool-00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });
});
