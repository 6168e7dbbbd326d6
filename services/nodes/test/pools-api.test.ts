import { PASSWORD } from '@cloud/accounts/testing';
import { message, messageSchemas, type AnyBusMessage, type NodeRoute } from '@cloud/bus';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';

interface Pool {
  id: string;
  name: string;
  image: string;
  chain: string;
  dev: boolean;
  maxLagBlocks: number;
  members: Array<{ nodeId: string; name: string | null; state: string; sync: unknown }>;
  endpoints: { jsonRpc: string };
  access: { ratePerSecond: number | null };
  createdAt: string;
  updatedAt: string;
  nodeUser?: string;
  nodePass?: string;
}

interface Node {
  id: string;
  name: string | null;
  state: string;
  endpoints: unknown;
}

type PoolRoute = NodeRoute & { pool: { members: string[]; maxLagBlocks: number } };

const UNKNOWN_NODE = 'node-00000000-0000-4000-8000-000000000000';
const UNKNOWN_POOL = 'pool-00000000-0000-4000-8000-000000000000';

// Pools (issue 31) at the nodes service: the API, what it stores, what it announces to the
// node-proxy (pool.changed / pool.deleted through the outbox, and the routes snapshot), and how a
// node's or the user's deletion takes nodes out of pools. Nodes run on the local driver (anvil for
// eth, the dev chain for btc); a pool only needs them to exist.
describe('pools API', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let alice: TestUser;
  let bob: TestUser;
  let heard: AnyBusMessage[];
  /** alice's eth nodes, btc node, and bob's eth node */
  let eth: Node[];
  let btc: Node;
  let bobsEth: Node;

  beforeAll(async () => {
    platform = await startTestPlatform();
    heard = [];
    await platform.bus.subscribe({
      name: 'pools-api-test',
      bindings: ['pool.*'],
      handle: async (messages) => {
        heard.push(...messages);
      },
    });
    nodes = await platform.startNodes({ MAX_NODES_PER_USER: '10', MAX_POOLS_PER_USER: '3' });
    [alice, bob] = [await platform.user(), await platform.user()];
    eth = [];
    for (const name of ['eth-a', 'eth-b', 'eth-c', 'eth-d']) eth.push(await createNode(alice, { image: 'eth', name }));
    btc = await createNode(alice, { image: 'btc' });
    bobsEth = await createNode(bob, { image: 'eth' });
  }, 120_000);
  afterAll(() => platform.close());

  async function createNode(owner: TestUser, body: object): Promise<Node> {
    return (await nodes.http.post('/users/me/nodes').set(bearer(owner.clientToken)).send(body).expect(200)).body as Node;
  }

  const as = (user: TestUser) => bearer(user.clientToken);
  const createPool = (user: TestUser, body: object) => nodes.http.post('/users/me/pools').set(as(user)).send(body);

  async function poolCount(userId: string): Promise<number> {
    const [{ count }] = (await nodes.service.db('pools').where({ user_id: userId, deleted: false }).count({ count: '*' })) as [{ count: string | number }];
    return Number(count);
  }

  /** The pool messages heard about `id`, each payload checked against the bus schema of its kind. */
  const messagesOf = (id: string) =>
    heard
      .filter((each) => (each.payload as { nodeId?: string }).nodeId === id)
      .map((each) => ({ kind: each.kind, payload: messageSchemas[each.kind].parse(each.payload) as PoolRoute }));

  const awaitRevision = (id: string, revision: number) =>
    waitUntil(`pool ${id} revision ${revision} is heard`, () => messagesOf(id).some((each) => each.payload.revision === revision), 10_000, 20);

  async function membersInDatabase(poolId: string): Promise<string[]> {
    const rows = (await nodes.service.db('pool_members').where({ pool_id: poolId }).orderBy('position').select('node_id')) as Array<{ node_id: string }>;
    return rows.map((row) => row.node_id);
  }

  it('creates a pool with one Basic credential shown once, lists it, reads it, and announces its route', async () => {
    const created = await createPool(alice, { name: ' payments ', members: [eth[0]!.id, eth[1]!.id] }).expect(200);
    const pool = created.body as Pool;
    expect(pool).toEqual({
      id: expect.stringMatching(/^pool-[0-9a-f-]{36}$/),
      name: 'payments',
      image: 'eth',
      chain: 'eth',
      network: 'mainnet',
      networkLabel: 'eth dev chain (anvil)',
      dev: true,
      maxLagBlocks: 5,
      members: [
        expect.objectContaining({ nodeId: eth[0]!.id, name: 'eth-a', state: expect.any(String) }),
        expect.objectContaining({ nodeId: eth[1]!.id, name: 'eth-b', state: expect.any(String) }),
      ],
      // Routed by its credential, as a Basic node is: the same addresses.
      endpoints: eth[0]!.endpoints,
      access: { ipAllowlist: [], originAllowlist: [], refusedMethods: [], ratePerSecond: null, maxAnswerBytes: null },
      createdAt: expect.any(String),
      updatedAt: pool.createdAt,
      nodeUser: expect.stringMatching(/^u/),
      nodePass: expect.any(String),
    });

    // Stored: the row, its members in order, and the credential's hash only.
    const row = (await nodes.service.db('pools').where({ id: pool.id }).first()) as Record<string, unknown> & { credentials: Array<Record<string, string>> };
    expect(row).toMatchObject({ user_id: alice.id, name: 'payments', image: 'eth', chain: 'eth', dev: true, max_lag_blocks: 5, revision: 0, deleted: false });
    expect(row.credentials).toEqual([
      {
        kind: 'basic',
        id: expect.stringMatching(/^cred-/),
        name: 'default',
        user: pool.nodeUser,
        passwordSha256: sha256(pool.nodePass!),
        createdAt: pool.createdAt,
      },
    ]);
    expect(JSON.stringify(row)).not.toContain(pool.nodePass);
    expect(await membersInDatabase(pool.id)).toEqual([eth[0]!.id, eth[1]!.id]);

    const { nodeUser: _user, nodePass: _pass, ...shown } = pool;
    const listed = (await nodes.http.get('/users/me/pools').set(as(alice)).expect(200)).body as Pool[];
    expect(listed.find((each) => each.id === pool.id)).toEqual({ ...shown, members: expect.any(Array) as unknown });
    const one = (await nodes.http.get(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200)).body as Pool;
    expect(one).toEqual({ ...shown, members: expect.any(Array) as unknown });
    expect(one.members.map((member) => member.nodeId)).toEqual([eth[0]!.id, eth[1]!.id]);
    expect(one.nodePass).toBeUndefined();

    await awaitRevision(pool.id, 0);
    const credentialId = row.credentials[0]!.id!;
    expect(messagesOf(pool.id)).toEqual([
      {
        kind: 'pool.changed',
        payload: {
          nodeId: pool.id,
          userId: alice.id,
          image: 'eth',
          chain: 'eth',
          revision: 0,
          dev: true,
          state: 'running',
          basic: { user: pool.nodeUser, passwordSha256: sha256(pool.nodePass!) },
          upstream: null,
          credentials: [{ id: credentialId, user: pool.nodeUser, passwordSha256: sha256(pool.nodePass!) }],
          pool: { members: [eth[0]!.id, eth[1]!.id], maxLagBlocks: 5 },
        },
      },
    ]);

    // Another user's pool is as absent as one that never was.
    await nodes.http.get(`/users/me/pools/${pool.id}`).set(as(bob)).expect(404);
    expect(((await nodes.http.get('/users/me/pools').set(as(bob)).expect(200)).body as Pool[]).map((each) => each.id)).not.toContain(pool.id);
  });

  it('changes the name, lag bound and members as a whole, each change a new revision announced', async () => {
    const pool = (await createPool(alice, { name: 'to change', members: [eth[0]!.id], maxLagBlocks: 0 }).expect(200)).body as Pool;
    expect(pool.maxLagBlocks).toBe(0);

    const renamed = await nodes.http.patch(`/users/me/pools/${pool.id}`).set(as(alice)).send({ name: 'changed' }).expect(200);
    expect(renamed.body).toMatchObject({ id: pool.id, name: 'changed', maxLagBlocks: 0 });
    const replaced = await nodes.http
      .patch(`/users/me/pools/${pool.id}`)
      .set(as(alice))
      .send({ members: [eth[2]!.id, eth[1]!.id], maxLagBlocks: 10_000 })
      .expect(200);
    expect(replaced.body).toMatchObject({
      name: 'changed',
      maxLagBlocks: 10_000,
      members: [expect.objectContaining({ nodeId: eth[2]!.id, name: 'eth-c' }), expect.objectContaining({ nodeId: eth[1]!.id, name: 'eth-b' })],
    });
    expect(await membersInDatabase(pool.id)).toEqual([eth[2]!.id, eth[1]!.id]);
    expect(await nodes.service.db('pools').where({ id: pool.id }).first('name', 'max_lag_blocks', 'revision')).toEqual({
      name: 'changed',
      max_lag_blocks: 10_000,
      revision: 2,
    });

    await awaitRevision(pool.id, 2);
    expect(messagesOf(pool.id).map(({ kind, payload }) => [kind, payload.revision, payload.pool])).toEqual([
      ['pool.changed', 0, { members: [eth[0]!.id], maxLagBlocks: 0 }],
      ['pool.changed', 1, { members: [eth[0]!.id], maxLagBlocks: 0 }],
      ['pool.changed', 2, { members: [eth[2]!.id, eth[1]!.id], maxLagBlocks: 10_000 }],
    ]);
    await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200);
  });

  describe('refuses', () => {
    const refused = async (call: Promise<{ status: number; body: unknown }>, status: number, code: string, text: string | RegExp) => {
      const response = await call;
      expect([response.status, response.body]).toEqual([status, { code, message: expect.stringMatching(text) as unknown }]);
    };

    it.each<[string, () => object, RegExp | (() => string)]>([
      ['no members', () => ({ name: 'p', members: [] }), /body\.members: .*at least one/],
      ['17 members', () => ({ name: 'p', members: Array.from({ length: 17 }, () => eth[0]!.id) }), /body\.members: .*at most 16/],
      ['a node named twice', () => ({ name: 'p', members: [eth[0]!.id, eth[0]!.id] }), /body\.members: must not name a node twice/],
      ['a member that is not a node id', () => ({ name: 'p', members: ['eth-a'] }), /body\.members\.0: must be an id of the form node-<uuid>/],
      ['an unknown member, naming it', () => ({ name: 'p', members: [eth[0]!.id, UNKNOWN_NODE] }), () => `body.members: no node ${UNKNOWN_NODE} of yours`],
      ["another user's node, as unknown", () => ({ name: 'p', members: [bobsEth.id] }), () => `body.members: no node ${bobsEth.id} of yours`],
      [
        'members of two images',
        () => ({ name: 'p', members: [eth[0]!.id, btc.id] }),
        /body\.members: all members must be of one image and network: .* is eth .*, .* is btc/,
      ],
      ['no name', () => ({ members: [eth[0]!.id] }), /body\.name/],
      ['an empty name', () => ({ name: '  ', members: [eth[0]!.id] }), /body\.name: must not be empty/],
      ['a name with a line break', () => ({ name: 'a\nb', members: [eth[0]!.id] }), /body\.name: must be printable/],
      ['a negative lag bound', () => ({ name: 'p', members: [eth[0]!.id], maxLagBlocks: -1 }), /body\.maxLagBlocks: must be at least 0/],
      ['a lag bound over 10000', () => ({ name: 'p', members: [eth[0]!.id], maxLagBlocks: 10_001 }), /body\.maxLagBlocks: must be at most 10000/],
      ['a fractional lag bound', () => ({ name: 'p', members: [eth[0]!.id], maxLagBlocks: 1.5 }), /body\.maxLagBlocks: must be a whole number/],
      ['an unknown field', () => ({ name: 'p', members: [eth[0]!.id], image: 'eth' }), /image/],
    ])('a pool with %s (400), and stores nothing', async (_what, body, text) => {
      const before = await poolCount(alice.id);
      await refused(createPool(alice, body()), 400, 'InvalidInput', typeof text === 'function' ? text() : text);
      expect(await poolCount(alice.id)).toBe(before);
    });

    it("a validator's node and a node being deleted as members (400)", async () => {
      const validatorId = 'node-6f1c2a9e-1b7d-4c55-9a0e-3f2d8c4b7a62';
      await platform.bus.publish([
        message('validator.created', {
          nodeId: validatorId,
          userId: alice.id,
          image: 'avalanchefuji',
          basic: { user: 'uvalidator02', passwordSha256: sha256('x') },
        }),
      ]);
      await waitUntil(
        'the validator node exists',
        async () => (await nodes.http.get(`/users/me/nodes/${validatorId}`).set(as(alice))).status === 200,
        10_000,
        50,
      );
      await refused(createPool(alice, { name: 'p', members: [validatorId] }), 400, 'InvalidInput', `body.members: node ${validatorId} is avalanchefuji`);

      const doomed = await createNode(alice, { image: 'eth' });
      await nodes.http.delete(`/users/me/nodes/${doomed.id}`).set(as(alice)).expect(200);
      // Deleting or already deleted (the reconciler may be quick): refused either way.
      await refused(
        createPool(alice, { name: 'p', members: [doomed.id] }),
        400,
        'InvalidInput',
        new RegExp(`body\\.members: (node ${doomed.id} is being deleted|no node ${doomed.id} of yours)`),
      );
    });

    it('a change without a field, or with members of another image than the pool (400); the pool unchanged', async () => {
      const pool = (await createPool(alice, { name: 'fixed', members: [eth[0]!.id] }).expect(200)).body as Pool;
      await refused(nodes.http.patch(`/users/me/pools/${pool.id}`).set(as(alice)).send({}), 400, 'InvalidInput', /give name, members, maxLagBlocks or several/);
      await refused(
        nodes.http
          .patch(`/users/me/pools/${pool.id}`)
          .set(as(alice))
          .send({ members: [btc.id] }),
        400,
        'InvalidInput',
        `body.members: the pool serves eth on a dev chain nodes; ${btc.id} is btc on a dev chain`,
      );
      await refused(
        nodes.http
          .patch(`/users/me/pools/${pool.id}`)
          .set(as(alice))
          .send({ members: [eth[0]!.id, eth[0]!.id] }),
        400,
        'InvalidInput',
        /twice/,
      );
      expect(await nodes.service.db('pools').where({ id: pool.id }).first('revision')).toEqual({ revision: 0 });
      expect(await membersInDatabase(pool.id)).toEqual([eth[0]!.id]);
      await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200);
    });

    it("an unknown pool or another user's (404), and an id that is not a pool's (400)", async () => {
      const pool = (await createPool(alice, { name: 'mine', members: [eth[0]!.id] }).expect(200)).body as Pool;
      for (const [user, id] of [
        [alice, UNKNOWN_POOL],
        [bob, pool.id],
      ] as const) {
        await refused(nodes.http.get(`/users/me/pools/${id}`).set(as(user)), 404, 'NotFound', `no pool ${id}`);
        await refused(nodes.http.patch(`/users/me/pools/${id}`).set(as(user)).send({ name: 'x' }), 404, 'NotFound', `no pool ${id}`);
        await refused(nodes.http.delete(`/users/me/pools/${id}`).set(as(user)), 404, 'NotFound', `no pool ${id}`);
        await refused(nodes.http.get(`/users/me/pools/${id}/credentials`).set(as(user)), 404, 'NotFound', `no pool ${id}`);
        await refused(nodes.http.get(`/users/me/pools/${id}/usage`).set(as(user)), 404, 'NotFound', `no pool ${id}`);
      }
      // A node's id is not a pool's, nor the reverse.
      await refused(nodes.http.get(`/users/me/pools/${eth[0]!.id}`).set(as(alice)), 400, 'InvalidInput', /params\.id: must be an id of the form pool-<uuid>/);
      await refused(nodes.http.get(`/users/me/nodes/${pool.id}/credentials`).set(as(alice)), 400, 'InvalidInput', /node-<uuid>/);
      await refused(nodes.http.get('/users/me/pools'), 401, 'Unauthorized', /./);
      await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200);
    });

    it('a pool over the limit (403 LimitExceeded)', async () => {
      const user = await platform.user();
      const member = await createNode(user, { image: 'btc' });
      const made: string[] = [];
      for (let i = 0; i < 3; i += 1) made.push(((await createPool(user, { name: `p${i}`, members: [member.id] }).expect(200)).body as Pool).id);
      await refused(createPool(user, { name: 'one more', members: [member.id] }), 403, 'LimitExceeded', /3 pools, the most allowed/);
      expect(await poolCount(user.id)).toBe(3);
      // A deleted pool no longer counts.
      await nodes.http.delete(`/users/me/pools/${made[0]}`).set(as(user)).expect(200);
      await createPool(user, { name: 'again', members: [member.id] }).expect(200);
    });

    it('more pools than the limit asked for at once: exactly the limit is created', async () => {
      const user = await platform.user();
      const member = await createNode(user, { image: 'btc' });
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => createPool(user, { name: `racing ${i}`, members: [member.id] })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 403, 403, 403]);
      expect(await poolCount(user.id)).toBe(3);
    });
  });

  it("has credentials, URL tokens and access rules of its own, each change announced in the pool's route", async () => {
    const pool = (await createPool(alice, { name: 'credentials', members: [eth[1]!.id] }).expect(200)).body as Pool;
    const token = (await nodes.http.post(`/users/me/pools/${pool.id}/credentials`).set(as(alice)).send({ name: 'ci', kind: 'token' }).expect(200)).body as {
      id: string;
      token: string;
      urls: { jsonRpc: string };
    };
    expect(token.token).toMatch(/^nt_[A-Za-z0-9_-]{43}$/);
    expect(token.urls.jsonRpc).toBe(`${pool.endpoints.jsonRpc.replace(/\/$/, '')}/${token.token}`);
    const listed = (await nodes.http.get(`/users/me/pools/${pool.id}/credentials`).set(as(alice)).expect(200)).body as Array<{
      id: string;
      name: string;
      kind: string;
    }>;
    expect(listed.map(({ name, kind }) => [name, kind])).toEqual([
      ['default', 'basic'],
      ['ci', 'token'],
    ]);

    const rules = { ipAllowlist: ['203.0.113.7'], refusedMethods: ['eth_getLogs'], ratePerSecond: 5 };
    const withRules = (await nodes.http.put(`/users/me/pools/${pool.id}/access`).set(as(alice)).send(rules).expect(200)).body as Pool;
    const access = { ipAllowlist: ['203.0.113.7/32'], originAllowlist: [], refusedMethods: ['eth_getlogs'], ratePerSecond: 5, maxAnswerBytes: null };
    expect(withRules).toMatchObject({ id: pool.id, name: 'credentials', access });
    expect((await nodes.http.get(`/users/me/pools/${pool.id}/access`).set(as(alice)).expect(200)).body).toEqual(access);
    const tooFast = await nodes.http.put(`/users/me/pools/${pool.id}/access`).set(as(alice)).send({ ratePerSecond: 1_000_000 });
    expect([tooFast.status, (tooFast.body as { code: string }).code]).toEqual([400, 'InvalidInput']);

    const [basic] = listed;
    await nodes.http.delete(`/users/me/pools/${pool.id}/credentials/${basic!.id}`).set(as(alice)).expect(200);
    await awaitRevision(pool.id, 3);
    const routes = messagesOf(pool.id).map((each) => each.payload);
    expect(routes.map((route) => route.revision)).toEqual([0, 1, 2, 3]);
    expect(routes[1]).toMatchObject({ tokens: [{ id: token.id, tokenSha256: sha256(token.token) }] });
    expect(routes[2]).toMatchObject({ access });
    // The Basic credential revoked: only the token is left.
    expect(routes[3]).toMatchObject({ basic: null, credentials: [], tokens: [{ id: token.id }], access, pool: { members: [eth[1]!.id] } });
    await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200);
  });

  it('is deleted at once: 404 afterwards, its row kept as deleted, pool.deleted announced', async () => {
    const pool = (await createPool(alice, { name: 'short-lived', members: [eth[0]!.id] }).expect(200)).body as Pool;
    expect((await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200)).body).toEqual({ id: pool.id, deleted: true });
    await nodes.http.get(`/users/me/pools/${pool.id}`).set(as(alice)).expect(404);
    await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(404);
    expect(await nodes.service.db('pools').where({ id: pool.id }).first('deleted', 'revision')).toEqual({ deleted: true, revision: 1 });
    await awaitRevision(pool.id, 1);
    expect(messagesOf(pool.id).map(({ kind, payload }) => [kind, payload.revision, payload.state])).toEqual([
      ['pool.changed', 0, 'running'],
      ['pool.deleted', 1, 'deleted'],
    ]);
    // Its member runs on.
    expect(((await nodes.http.get(`/users/me/nodes/${eth[0]!.id}`).set(as(alice)).expect(200)).body as Node).state).not.toBe('deleting');
  });

  it('loses a member node that is deleted: a new revision without it', async () => {
    const leaving = await createNode(alice, { image: 'eth', name: 'leaving' });
    const first = (await createPool(alice, { name: 'first', members: [leaving.id, eth[3]!.id] }).expect(200)).body as Pool;
    const second = (await createPool(alice, { name: 'second', members: [leaving.id] }).expect(200)).body as Pool;

    await nodes.http.delete(`/users/me/nodes/${leaving.id}`).set(as(alice)).expect(200);
    expect(await membersInDatabase(first.id)).toEqual([eth[3]!.id]);
    expect(await membersInDatabase(second.id)).toEqual([]);
    const shown = (await nodes.http.get(`/users/me/pools/${first.id}`).set(as(alice)).expect(200)).body as Pool;
    expect(shown.members.map((member) => member.nodeId)).toEqual([eth[3]!.id]);
    // A pool left with no member stays, for its owner to give it others.
    expect(((await nodes.http.get(`/users/me/pools/${second.id}`).set(as(alice)).expect(200)).body as Pool).members).toEqual([]);

    await awaitRevision(first.id, 1);
    await awaitRevision(second.id, 1);
    expect(messagesOf(first.id).at(-1)).toEqual({
      kind: 'pool.changed',
      payload: expect.objectContaining({ revision: 1, pool: { members: [eth[3]!.id], maxLagBlocks: 5 } }),
    });
    expect(messagesOf(second.id).at(-1)).toEqual({
      kind: 'pool.changed',
      payload: expect.objectContaining({ revision: 1, pool: { members: [], maxLagBlocks: 5 } }),
    });
    await nodes.http
      .patch(`/users/me/pools/${second.id}`)
      .set(as(alice))
      .send({ members: [eth[3]!.id] })
      .expect(200);
    for (const id of [first.id, second.id]) await nodes.http.delete(`/users/me/pools/${id}`).set(as(alice)).expect(200);
  });

  it("reports a pool's usage, booked by the proxy under the pool's id", async () => {
    const pool = (await createPool(alice, { name: 'metered', members: [eth[0]!.id] }).expect(200)).body as Pool;
    const from = platform.clock() - 5_000;
    await platform.bus.publish([
      message('node.usage', {
        proxyId: 'proxy-pools-test',
        from: new Date(from).toISOString(),
        to: new Date(from + 5_000).toISOString(),
        nodes: [
          {
            nodeId: pool.id,
            userId: alice.id,
            requests: 7,
            blocked: 0,
            bytesIn: 70,
            bytesOut: 140,
            calls: [{ method: 'eth_blocknumber', outcome: 'ok', calls: 7 }],
            credentials: [],
            cachedCalls: 3,
            members: [{ nodeId: eth[0]!.id, calls: 4 }],
          },
        ],
      }),
    ]);
    const read = async () =>
      (await nodes.http.get(`/users/me/pools/${pool.id}/usage`).set(as(alice)).expect(200)).body as { nodeId: string; totals: { total: number } };
    await waitUntil("the pool's usage is stored", async () => (await read()).totals.total === 7, 10_000, 50);
    expect(await read()).toMatchObject({
      nodeId: pool.id,
      totals: { total: 7, bytesIn: 70, bytesOut: 140 },
      methods: [{ method: 'eth_blocknumber', total: 7 }],
    });
    await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200);
  });

  it('lists pool routes in the routes snapshot, after every node, a page at a time', async () => {
    const user = await platform.user();
    const member = await createNode(user, { image: 'btc' });
    const made = [];
    for (const name of ['s1', 's2', 's3']) made.push((await createPool(user, { name, members: [member.id] }).expect(200)).body as Pool);
    await nodes.http.delete(`/users/me/pools/${made[1]!.id}`).set(as(user)).expect(200);
    const live = [made[0]!.id, made[2]!.id];
    for (const id of live) await awaitRevision(id, 0);

    const pages = [];
    let after: string | undefined;
    do {
      const page = await platform.bus.request('nodes.routes', { ...(after ? { after } : {}), limit: 2 });
      pages.push(page);
      after = page.next ?? undefined;
    } while (after);
    const routes = pages.flatMap((page) => page.routes);
    const ids = routes.map((route) => route.nodeId);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    const firstPool = ids.findIndex((id) => id.startsWith('pool-'));
    expect(ids.slice(0, firstPool).every((id) => id.startsWith('node-'))).toBe(true);
    expect(ids).toContain(member.id);
    expect(ids).not.toContain(made[1]!.id);
    // Each pool's route is what its last pool.changed said.
    for (const id of live) expect(routes.find((route) => route.nodeId === id)).toEqual(messagesOf(id).at(-1)!.payload);
    const allPools = (await nodes.service.db('pools').where({ deleted: false }).select('id')) as Array<{ id: string }>;
    expect(ids.filter((id) => id.startsWith('pool-'))).toEqual(allPools.map((row) => row.id).sort());
  });

  it("deletes a deleted user's pools and announces it", async () => {
    const user = await platform.user();
    const member = await createNode(user, { image: 'btc' });
    const pool = (await createPool(user, { name: 'going', members: [member.id] }).expect(200)).body as Pool;
    await awaitRevision(pool.id, 0);

    await platform.accounts.http.delete('/users/me').set(bearer(user.accountToken)).send({ password: PASSWORD }).expect(204);
    await waitUntil(
      "the user's pool is deleted",
      async () => (await nodes.service.db('pools').where({ id: pool.id }).first('deleted'))?.deleted === true,
      30_000,
      50,
    );
    await awaitRevision(pool.id, 1);
    expect(messagesOf(pool.id).at(-1)).toEqual({ kind: 'pool.deleted', payload: expect.objectContaining({ revision: 1, state: 'deleted', userId: user.id }) });
  });
});

// The same messages through a real broker, as the node-proxy receives them: each decoded against
// the bus schema of its kind on the way in, and the snapshot answered over RabbitMQ.
describe('pools over RabbitMQ', () => {
  let platform: TestPlatform;
  afterAll(() => platform?.close());

  it('announces a pool created, changed and deleted, and lists it in the routes snapshot meanwhile', async () => {
    platform = await startTestPlatform({ rabbitmq: true });
    const heard: AnyBusMessage[] = [];
    await platform.bus.subscribe({
      name: 'pools-rabbitmq-test',
      bindings: ['pool.*'],
      handle: async (messages) => {
        heard.push(...messages);
      },
    });
    const nodes = await platform.startNodes();
    const user = await platform.user();
    const member = (await nodes.http.post('/users/me/nodes').set(bearer(user.clientToken)).send({ image: 'btc' }).expect(200)).body as Node;
    const pool = (
      await nodes.http
        .post('/users/me/pools')
        .set(bearer(user.clientToken))
        .send({ name: 'over the broker', members: [member.id] })
        .expect(200)
    ).body as Pool;
    await nodes.http.patch(`/users/me/pools/${pool.id}`).set(bearer(user.clientToken)).send({ maxLagBlocks: 1 }).expect(200);

    await waitUntil('revision 1 is heard', () => heard.some((each) => (each.payload as NodeRoute).revision === 1), 20_000, 20);
    const snapshot = await platform.bus.request('nodes.routes', { limit: 10 });
    expect(snapshot.routes.map((route) => route.nodeId)).toEqual([member.id, pool.id]);
    expect(snapshot.routes[1]).toEqual(heard.at(-1)!.payload);

    await nodes.http.delete(`/users/me/pools/${pool.id}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil('pool.deleted is heard', () => heard.some((each) => each.kind === 'pool.deleted'), 20_000, 20);
    expect(heard.map((each) => [each.kind, (each.payload as NodeRoute).revision, (each.payload as PoolRoute).pool])).toEqual([
      ['pool.changed', 0, { members: [member.id], maxLagBlocks: 5 }],
      ['pool.changed', 1, { members: [member.id], maxLagBlocks: 1 }],
      ['pool.deleted', 2, { members: [member.id], maxLagBlocks: 1 }],
    ]);
    expect((await platform.bus.request('nodes.routes', { limit: 10 })).routes.map((route) => route.nodeId)).toEqual([member.id]);
  });
});
