import { createHash } from 'node:crypto';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';

// The nodes API with a client token: chains, input checks, the node limit, isolation between
// users, credentials and logs. Nodes here run on the local driver (dev chain for btc).
describe('nodes API', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    platform = await startTestPlatform();
    nodes = await platform.startNodes({ MAX_NODES_PER_USER: '2', NODE_DOMAIN: 'nodes.example.test' });
    [alice, bob] = [await platform.user(), await platform.user()];
  });
  afterAll(() => platform.close());

  const asAlice = () => bearer(alice.clientToken);
  const createNode = (token: string, body: unknown) =>
    nodes.http
      .post('/users/me/nodes')
      .set(bearer(token))
      .send(body as object);

  describe('authentication', () => {
    it.each([
      ['no token', {}],
      ['an account token', () => bearer(alice.accountToken)],
      ['a refresh token', () => bearer(alice.refreshToken)],
      ['a malformed token', { authorization: 'Bearer not.a.token' }],
    ])('refuses %s with 401', async (_what, headers) => {
      const set = typeof headers === 'function' ? headers() : headers;
      // GET /chains is public, but a token sent with it must be a valid client token.
      const chains = Object.keys(set).length > 0 ? [nodes.http.get('/chains')] : [];
      for (const call of [...chains, nodes.http.get('/users/me/nodes'), nodes.http.post('/users/me/nodes').send({ image: 'btc' })]) {
        const response = await call.set(set);
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ code: 'Unauthorized', message: expect.any(String) });
      }
      const [{ count }] = (await nodes.service.db('nodes').count({ count: '*' })) as [{ count: string | number }];
      expect(Number(count)).toBe(0);
    });
  });

  it('answers GET /chains without a token, with the list a client token gets', async () => {
    const anonymous = await nodes.http.get('/chains').expect(200);
    const withToken = await nodes.http.get('/chains').set(asAlice()).expect(200);
    expect(anonymous.body).toEqual(withToken.body);
    expect((anonymous.body as unknown[]).length).toBeGreaterThan(0);
  });

  it('lists every image with the software that really runs it', async () => {
    const response = await nodes.http.get('/chains').set(asAlice()).expect(200);
    const chains = response.body as Array<{ image: string; chain: string; network: string; networkLabel: string; software: string; dev: boolean }>;
    expect(chains.map((each) => each.image).sort()).toEqual(['bch', 'bchtestnet', 'btc', 'btctestnet', 'eth', 'ltc']);
    const byImage = new Map(chains.map((each) => [each.image, each]));
    expect(byImage.get('btc')).toEqual({
      image: 'btc',
      chain: 'btc',
      network: 'mainnet',
      networkLabel: 'btc dev chain (regtest)',
      software: expect.stringMatching(/^cloud-dev-chain-\d+\.\d+\.\d+$/),
      dev: true,
      pruned: false,
    });
    // The network in words: a dev chain never says the image's network (mainnet, testnet).
    expect(byImage.get('eth')?.networkLabel).toBe('eth dev chain (anvil)');
    expect(chains.map((each) => each.networkLabel).filter((label) => /mainnet|testnet/.test(label))).toEqual([]);
    // LOCAL_NETWORKS=dev (the default): every option runs a private dev chain, and says so.
    expect(chains.map((each) => [each.image, each.dev])).toEqual(chains.map((each) => [each.image, true]));
    expect(byImage.get('bchtestnet')).toMatchObject({ chain: 'bch', network: 'testnet' });
    expect(byImage.get('ltc')?.software).toMatch(/^litecoin-core-\d+\.\d+\.\d+/);
    expect(byImage.get('eth')?.software).toMatch(/^anvil-\d+\.\d+\.\d+$/);
  });

  describe('bad input', () => {
    it.each([
      ['an unknown image', { image: 'doge' }, /body\.image/],
      ['a validator image (the staking service makes those)', { image: 'avalanchefuji' }, /body\.image/],
      ['no image', {}, /body\.image/],
      ['a number for image', { image: 7 }, /body\.image/],
      ['a string for large', { image: 'btc', large: 'yes' }, /body\.large/],
      ['a number for jwt', { image: 'btc', jwt: 1 }, /body\.jwt/],
      ['an unknown field', { image: 'btc', size: 'xl' }, /size/],
      ['a string for txindex', { image: 'btc', txindex: 'yes' }, /body\.txindex/],
      ['txindex on eth', { image: 'eth', txindex: true }, /^body\.txindex: only Bitcoin-family nodes .* not eth$/],
    ])('answers 400 InvalidInput to %s, and creates nothing', async (_what, body, mentions) => {
      const response = await createNode(alice.clientToken, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'InvalidInput', message: expect.stringMatching(mentions) });
      expect((await nodes.http.get('/users/me/nodes').set(asAlice()).expect(200)).body).toEqual([]);
    });

    it('answers 400 to a body that is not JSON', async () => {
      const response = await nodes.http.post('/users/me/nodes').set(asAlice()).set('content-type', 'application/json').send('{"image": ');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'InvalidInput' });
    });

    it('answers 400 to a bad number of log lines', async () => {
      for (const lines of ['0', 'many', '100001', '-3']) {
        const response = await nodes.http.get(`/users/me/nodes/node-00000000-0000-4000-8000-000000000000/logs?lines=${lines}`).set(asAlice());
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 'InvalidInput', message: expect.stringContaining('query.lines') });
      }
    });
  });

  describe('with nodes', () => {
    let basic: { id: string; nodeUser: string; nodePass: string };
    let jwtNode: { id: string };

    it('creates a node in state provisioning, with Basic credentials shown once and stored hashed', async () => {
      const response = await createNode(alice.clientToken, { image: 'btc' });
      expect(response.status).toBe(200);
      const node = response.body as Record<string, unknown>;
      expect(node).toEqual({
        id: expect.stringMatching(/^node-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        name: null,
        user: alice.id,
        image: 'btc',
        chain: 'btc',
        network: 'mainnet',
        networkLabel: 'btc dev chain (regtest)',
        software: expect.stringMatching(/^cloud-dev-chain-/),
        large: false,
        jwt: false,
        dev: true,
        txindex: false,
        state: 'provisioning',
        stateReason: null,
        sync: null,
        address: `${String(node.id)}.nodes.example.test`,
        ports: { jsonRpc: 8332, rest: 8332 },
        endpoints: {
          jsonRpc: 'https://127.0.0.1:8332/',
          rest: 'https://127.0.0.1:8332/rest/',
          plain: { jsonRpc: 'http://127.0.0.1:8332/', rest: 'http://127.0.0.1:8332/rest/' },
        },
        access: { ipAllowlist: [], originAllowlist: [], refusedMethods: [], ratePerSecond: null, maxAnswerBytes: null },
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
        nodeUser: expect.stringMatching(/^u[0-9a-f]{16}$/),
        nodePass: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      basic = node as typeof basic;
      const row = (await nodes.service.db('nodes').where({ id: basic.id }).first()) as Record<string, unknown>;
      expect(row.credentials).toEqual([
        {
          kind: 'basic',
          id: expect.stringMatching(/^cred-/),
          name: 'default',
          user: basic.nodeUser,
          passwordSha256: createHash('sha256').update(basic.nodePass).digest('hex'),
          createdAt: expect.stringMatching(/Z$/),
        },
      ]);
      expect(JSON.stringify(row)).not.toContain(basic.nodePass);

      const fetched = (await nodes.http.get(`/users/me/nodes/${basic.id}`).set(asAlice()).expect(200)).body as Record<string, unknown>;
      expect(fetched).not.toHaveProperty('nodePass');
      expect(fetched).not.toHaveProperty('nodeUser');
    });

    it('creates a jwt node without Basic credentials', async () => {
      platform.clock.advance(1000); // lists are oldest first
      const response = await createNode(alice.clientToken, { image: 'eth', jwt: true, large: true });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ image: 'eth', chain: 'eth', jwt: true, large: true, ports: { jsonRpc: 8545, webSocket: 8545 } });
      expect(response.body).not.toHaveProperty('nodePass');
      jwtNode = response.body as typeof jwtNode;
    });

    it('refuses a node beyond the limit with 403 LimitExceeded', async () => {
      const response = await createNode(alice.clientToken, { image: 'ltc' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 'LimitExceeded', message: expect.stringContaining('2') });
      const mine = (await nodes.http.get('/users/me/nodes').set(asAlice()).expect(200)).body as Array<{ id: string }>;
      expect(mine.map((node) => node.id)).toEqual([basic.id, jwtNode.id]);
    });

    it('holds the limit under concurrent creations', async () => {
      const carol = await platform.user();
      const answers = await Promise.all([1, 2, 3, 4].map(() => createNode(carol.clientToken, { image: 'btc', jwt: true })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 403, 403]);
      const [{ count }] = (await nodes.service.db('nodes').where({ user_id: carol.id }).count({ count: '*' })) as [{ count: string | number }];
      expect(Number(count)).toBe(2);
    });

    it('hides a node from another user: 404 on every call, never 403', async () => {
      const asBob = bearer(bob.clientToken);
      expect((await nodes.http.get('/users/me/nodes').set(asBob).expect(200)).body).toEqual([]);
      for (const call of [
        nodes.http.get(`/users/me/nodes/${basic.id}`),
        nodes.http.delete(`/users/me/nodes/${basic.id}`),
        nodes.http.post(`/users/me/nodes/${basic.id}/credentials`).send({ name: 'bobs' }),
        nodes.http.get(`/users/me/nodes/${basic.id}/logs`),
      ]) {
        const response = await call.set(asBob);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ code: 'NotFound', message: `no node ${basic.id}` });
      }
      expect((await nodes.http.get(`/users/me/nodes/${basic.id}`).set(asAlice()).expect(200)).body).toMatchObject({
        state: expect.not.stringMatching('deleting'),
      });
    });

    it('adds a named credential beside the first, its password shown once and stored hashed', async () => {
      const response = await nodes.http.post(`/users/me/nodes/${basic.id}/credentials`).set(asAlice()).send({ name: 'second' }).expect(200);
      const added = response.body as { id: string; nodeUser: string; nodePass: string };
      expect(added.nodePass).not.toBe(basic.nodePass);
      const row = (await nodes.service.db('nodes').where({ id: basic.id }).first('credentials')) as {
        credentials: Array<{ name: string; user: string; passwordSha256: string }>;
      };
      expect(row.credentials.map((each) => [each.name, each.user, each.passwordSha256])).toEqual([
        ['default', basic.nodeUser, createHash('sha256').update(basic.nodePass).digest('hex')],
        ['second', added.nodeUser, createHash('sha256').update(added.nodePass).digest('hex')],
      ]);
    });

    it("serves the node software's log, at most the lines asked for", async () => {
      let running: { state: string; dev: boolean; sync: unknown } | undefined;
      await waitUntil(
        'the btc node runs',
        async () => {
          const node = (await nodes.http.get(`/users/me/nodes/${basic.id}`).set(asAlice()).expect(200)).body as { state: string; dev: boolean; sync: unknown };
          running = node;
          return node.state === 'running';
        },
        30_000,
        100,
      );
      // A dev chain is its own: nothing to sync with, no peers.
      expect(running).toMatchObject({
        dev: true,
        sync: {
          height: expect.any(Number),
          bestKnownHeight: expect.any(Number),
          progress: 1,
          peers: 0,
          syncing: false,
          checkedAt: expect.stringMatching(/Z$/),
        },
      });
      const response = await nodes.http.get(`/users/me/nodes/${basic.id}/logs?lines=3`).set(asAlice()).expect(200);
      const lines = response.body as string[];
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(lines.every((line) => typeof line === 'string')).toBe(true);
    });

    it('records an event of every call, as cloud-nodes, at the accounts service', async () => {
      await nodes.service.recorder.drain();
      await waitUntil(
        'the nodes calls are in the event list',
        async () => {
          const events = (await platform.accounts.http.get('/users/me/events?service=cloud-nodes&limit=500').set(bearer(alice.accountToken)).expect(200))
            .body as Array<{
            input: { method: string; route: string; resourceId?: string };
            output: { httpStatusCode: number };
          }>;
          return (
            events.some((event) => event.input.route === '/users/me/nodes' && event.input.method === 'POST' && event.output.httpStatusCode === 403) &&
            events.some((event) => event.input.route === '/users/me/nodes/:id/credentials' && event.input.resourceId === basic.id)
          );
        },
        15_000,
        100,
      );
    });
  });
});
