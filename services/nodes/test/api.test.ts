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
  const createNode = (token: string, body: unknown) => nodes.http.post('/users/me/nodes').set(bearer(token)).send(body as object);

  describe('authentication', () => {
    it.each([
      ['no token', {}],
      ['an account token', () => bearer(alice.accountToken)],
      ['a refresh token', () => bearer(alice.refreshToken)],
      ['a malformed token', { authorization: 'Bearer not.a.token' }],
    ])('refuses %s with 401', async (_what, headers) => {
      const set = typeof headers === 'function' ? headers() : headers;
      for (const call of [nodes.http.get('/chains'), nodes.http.get('/users/me/nodes'), nodes.http.post('/users/me/nodes').send({ image: 'btc' })]) {
        const response = await call.set(set);
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ code: 'Unauthorized', message: expect.any(String) });
      }
      const [{ count }] = (await nodes.service.db('nodes').count({ count: '*' })) as [{ count: string | number }];
      expect(Number(count)).toBe(0);
    });
  });

  it('lists every image with the software that really runs it', async () => {
    const response = await nodes.http.get('/chains').set(asAlice()).expect(200);
    const chains = response.body as Array<{ image: string; chain: string; network: string; software: string }>;
    expect(chains.map((each) => each.image).sort()).toEqual(['bch', 'bchtestnet', 'btc', 'btctestnet', 'eth', 'ltc']);
    const byImage = new Map(chains.map((each) => [each.image, each]));
    expect(byImage.get('btc')).toEqual({ image: 'btc', chain: 'btc', network: 'mainnet', software: expect.stringMatching(/^cloud-dev-chain-\d+\.\d+\.\d+$/) });
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
        const response = await nodes.http.get(`/users/me/nodes/node-x/logs?lines=${lines}`).set(asAlice());
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
        user: alice.id,
        image: 'btc',
        chain: 'btc',
        network: 'mainnet',
        software: expect.stringMatching(/^cloud-dev-chain-/),
        large: false,
        jwt: false,
        state: 'provisioning',
        stateReason: null,
        address: `${String(node.id)}.nodes.example.test`,
        ports: { jsonRpc: 8332, rest: 8332 },
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
        nodeUser: expect.stringMatching(/^u[0-9a-f]{16}$/),
        nodePass: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      basic = node as typeof basic;
      const row = (await nodes.service.db('nodes').where({ id: basic.id }).first()) as Record<string, unknown>;
      expect(row.node_password_hash).toBe(createHash('sha256').update(basic.nodePass).digest('hex'));
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
        nodes.http.post(`/users/me/nodes/${basic.id}/credentials`),
        nodes.http.get(`/users/me/nodes/${basic.id}/logs`),
      ]) {
        const response = await call.set(asBob);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ code: 'NotFound', message: `no node ${basic.id}` });
      }
      expect((await nodes.http.get(`/users/me/nodes/${basic.id}`).set(asAlice()).expect(200)).body).toMatchObject({ state: expect.not.stringMatching('deleting') });
    });

    it('rotates Basic credentials: new ones shown once, the old hash replaced', async () => {
      const before = (await nodes.service.db('nodes').where({ id: basic.id }).first()) as { node_password_hash: string; revision: number };
      const response = await nodes.http.post(`/users/me/nodes/${basic.id}/credentials`).set(asAlice()).expect(200);
      const rotated = response.body as { nodeUser: string; nodePass: string };
      expect(rotated.nodePass).not.toBe(basic.nodePass);
      const after = (await nodes.service.db('nodes').where({ id: basic.id }).first()) as { node_user: string; node_password_hash: string; revision: number };
      expect(after.node_user).toBe(rotated.nodeUser);
      expect(after.node_password_hash).toBe(createHash('sha256').update(rotated.nodePass).digest('hex'));
      expect(after.node_password_hash).not.toBe(before.node_password_hash);
      expect(after.revision).toBeGreaterThan(before.revision);
    });

    it('refuses to rotate credentials of a jwt node with 409', async () => {
      const response = await nodes.http.post(`/users/me/nodes/${jwtNode.id}/credentials`).set(asAlice());
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'Conflict' });
    });

    it('serves the node software\'s log, at most the lines asked for', async () => {
      await waitUntil('the btc node runs', async () => {
        const node = (await nodes.http.get(`/users/me/nodes/${basic.id}`).set(asAlice()).expect(200)).body as { state: string };
        return node.state === 'running';
      }, 30_000, 100);
      const response = await nodes.http.get(`/users/me/nodes/${basic.id}/logs?lines=3`).set(asAlice()).expect(200);
      const lines = response.body as string[];
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(3);
      expect(lines.every((line) => typeof line === 'string')).toBe(true);
    });

    it('records an event of every call, as cloud-nodes, at the accounts service', async () => {
      await nodes.service.recorder.drain();
      await waitUntil('the nodes calls are in the event list', async () => {
        const events = (await platform.accounts.http.get('/users/me/events?service=cloud-nodes&limit=500').set(bearer(alice.accountToken)).expect(200)).body as Array<{
          input: { method: string; route: string; resourceId?: string };
          output: { httpStatusCode: number };
        }>;
        return (
          events.some((event) => event.input.route === '/users/me/nodes' && event.input.method === 'POST' && event.output.httpStatusCode === 403) &&
          events.some((event) => event.input.route === '/users/me/nodes/:id/credentials' && event.input.resourceId === basic.id)
        );
      }, 15_000, 100);
    });
  });
});
