import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import type { AnyBusMessage } from '@cloud/bus';
import { avalancheNodeIdFromPem, isAvalancheNodeId } from '@cloud/chains';
import { bearer, sha256, startTestPlatform, waitUntil, type TestPlatform, type TestUser } from '@cloud/nodes/testing';
import { startTestStaking, type TestStaking } from '../src/testing';

interface Created {
  nodeId: string;
  chainNodeId: string;
  nodeUser: string;
  nodePass: string;
}

// The staking API with a client token: networks and limits, input checks, creation with its
// staking key and the nodes service's request, isolation between users and networks, the limit,
// and the call events. The nodes service does not run here: no node comes up.
describe('staking API', () => {
  let platform: TestPlatform;
  let staking: TestStaking;
  let alice: TestUser;
  let bob: TestUser;
  const heard: AnyBusMessage[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform();
    await platform.bus.subscribe({ name: 'staking-api-test', bindings: ['validator.*'], handle: async (messages) => void heard.push(...messages) });
    staking = await startTestStaking(platform, { MAX_VALIDATORS_PER_USER: '2', NODE_DOMAIN: 'nodes.example.test' });
    [alice, bob] = [await platform.user(), await platform.user()];
  });
  afterAll(async () => {
    await staking.close();
    await platform.close();
  });

  const asAlice = () => bearer(alice.clientToken);
  const fuji = '/staking/avalanche/fuji';

  describe('authentication', () => {
    it.each([
      ['no token', () => ({})],
      ['an account token', () => bearer(alice.accountToken)],
      ['a refresh token', () => bearer(alice.refreshToken)],
      ['a malformed token', () => ({ authorization: 'Bearer not.a.token' })],
    ])('refuses %s with 401 on every route', async (_what, headers) => {
      for (const call of [
        staking.http.get('/staking/avalanche/chains'),
        staking.http.get(`${fuji}/limits`),
        staking.http.post(`${fuji}/validators`),
        staking.http.get(`${fuji}/validators`),
        staking.http.get(`${fuji}/validators/node-00000000-0000-4000-8000-000000000000`),
        staking.http.delete(`${fuji}/validators/node-00000000-0000-4000-8000-000000000000`),
      ]) {
        const response = await call.set(headers());
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ code: 'Unauthorized', message: expect.any(String) });
      }
      const [{ count }] = (await staking.service.db('validators').count({ count: '*' })) as [{ count: string | number }];
      expect(Number(count)).toBe(0);
    });
  });

  it('lists the networks of the chain, and nothing for another chain', async () => {
    expect((await staking.http.get('/staking/avalanche/chains').set(asAlice()).expect(200)).body).toEqual([
      { chain: 'avalanche', network: 'mainnet' },
      { chain: 'avalanche', network: 'fuji' },
    ]);
    const other = await staking.http.get('/staking/eth/chains').set(asAlice());
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ code: 'NotFound', message: expect.stringContaining('eth') });
  });

  it('gives the limits of each network with their sources', async () => {
    const mainnet = (await staking.http.get('/staking/avalanche/mainnet/limits').set(asAlice()).expect(200)).body as Record<string, unknown>;
    expect(mainnet).toEqual({
      chain: 'avalanche',
      network: 'mainnet',
      token: 'AVAX',
      minimumStake: { avax: 2000, text: '2,000 AVAX', source: expect.stringContaining('§8') },
      minimumStakeDuration: { seconds: 14 * 86_400, text: '2 weeks', source: expect.stringContaining('§8') },
      maximumStakeDuration: { seconds: 365 * 86_400, text: '1 year (365 days)', source: expect.stringContaining('§8') },
      maximumWeight: {
        avax: 3_000_000,
        ownStakeFactor: 5,
        includesDelegations: true,
        text: expect.stringMatching(/lesser of 3,000,000 AVAX and 5 times/),
        source: expect.stringContaining('§8'),
      },
    });
    const testnet = (await staking.http.get(`${fuji}/limits`).set(asAlice()).expect(200)).body as Record<
      string,
      { avax?: number; seconds?: number; source: string }
    >;
    expect(testnet).toMatchObject({
      network: 'fuji',
      minimumStake: { avax: 1 },
      minimumStakeDuration: { seconds: 86_400 },
      maximumStakeDuration: { seconds: 365 * 86_400, source: expect.stringContaining('genesis_fuji.go') },
      maximumWeight: { avax: 3_000_000, ownStakeFactor: 5, source: expect.stringMatching(/genesis_fuji\.go.*MaxValidatorWeightFactor/) },
    });
  });

  it.each([
    ['an unknown network', '/staking/avalanche/testnet'],
    ['an unknown chain', '/staking/eth/mainnet'],
  ])('answers 404 NotFound on %s, on every route', async (_what, base) => {
    for (const call of [
      staking.http.get(`${base}/limits`),
      staking.http.post(`${base}/validators`),
      staking.http.get(`${base}/validators`),
      staking.http.get(`${base}/validators/node-00000000-0000-4000-8000-000000000000`),
      staking.http.delete(`${base}/validators/node-00000000-0000-4000-8000-000000000000`),
    ]) {
      const response = await call.set(asAlice());
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'NotFound', message: expect.any(String) });
    }
  });

  describe('a creation with a body', () => {
    it.each([
      ['an object with fields', { image: 'avalanche' }],
      ['an array', []],
    ])('answers 400 InvalidInput to %s, and creates nothing', async (_what, body) => {
      const response = await staking.http.post(`${fuji}/validators`).set(asAlice()).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'InvalidInput', message: expect.stringContaining('body') });
    });

    it('answers 400 to a body that is not JSON, or not of a JSON type', async () => {
      const broken = await staking.http.post(`${fuji}/validators`).set(asAlice()).set('content-type', 'application/json').send('{"large": ');
      expect([broken.status, broken.body.code]).toEqual([400, 'InvalidInput']);
      const text = await staking.http.post(`${fuji}/validators`).set(asAlice()).set('content-type', 'text/plain').send('make it large');
      expect([text.status, text.body.code]).toEqual([400, 'InvalidInput']);
      expect((await staking.http.get(`${fuji}/validators`).set(asAlice()).expect(200)).body).toEqual([]);
    });
  });

  describe('with validators', () => {
    let first: Created;
    let second: Created;

    it('creates a validator with no body: its NodeID at once, its node credentials shown once, and the node asked for', async () => {
      const response = await staking.http.post(`${fuji}/validators`).set(asAlice()).set('content-type', 'application/json');
      expect(response.status).toBe(200);
      const body = response.body as Created & Record<string, unknown>;
      expect(body).toEqual({
        nodeId: expect.stringMatching(/^node-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        chainNodeId: expect.stringMatching(/^NodeID-/),
        chain: 'avalanche',
        network: 'fuji',
        // Whether its node runs on a dev chain is known once the nodes service announces it.
        dev: null,
        networkLabel: 'avalanche fuji or a dev chain (not known yet)',
        image: 'avalanchefuji',
        state: 'provisioning',
        stateReason: null,
        address: `${body.nodeId}.nodes.example.test`,
        ports: { jsonRpc: 9650, management: 8080 },
        // Routed by its Basic user on the loopback address, plain HTTP beside TLS (the embedded default).
        endpoints: {
          jsonRpc: 'https://127.0.0.1:9650/',
          management: 'https://127.0.0.1:8080/',
          plain: { jsonRpc: 'http://127.0.0.1:9650/', management: 'http://127.0.0.1:8080/' },
        },
        nodeUser: expect.stringMatching(/^u[0-9a-f]{16}$/),
        nodePass: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        createdAt: new Date(platform.clock()).toISOString(),
        registration: { status: 'starting', checkedAt: expect.any(String), reason: 'its node is provisioning; the P-chain is read once it runs' },
      });
      expect(isAvalancheNodeId(body.chainNodeId)).toBe(true);
      first = body;

      await waitUntil('validator.created is heard', () => heard.some((each) => each.kind === 'validator.created'), 10_000);
      expect(heard.filter((each) => each.kind === 'validator.created').map((each) => each.payload)).toEqual([
        { nodeId: first.nodeId, userId: alice.id, image: 'avalanchefuji', basic: { user: first.nodeUser, passwordSha256: sha256(first.nodePass) } },
      ]);
    });

    it('accepts an empty JSON object as no body', async () => {
      platform.clock.advance(1000); // lists are oldest first
      second = (await staking.http.post(`${fuji}/validators`).set(asAlice()).send({}).expect(200)).body as Created;
      expect(second.chainNodeId).not.toBe(first.chainNodeId);
    });

    it('keeps the staking key encrypted, and hands it with its certificate to the nodes service', async () => {
      const row = (await staking.service.db('validators').where({ id: first.nodeId }).first()) as Record<string, unknown>;
      const stored = JSON.stringify(row) + Buffer.from(row.key_ciphertext as Uint8Array).toString('latin1');
      expect(stored).not.toContain('PRIVATE KEY');
      expect(stored).not.toContain(first.nodePass);

      const tls = await platform.bus.request('staking.validator-tls', { nodeId: first.nodeId });
      const certificate = new X509Certificate(tls.certificatePem);
      expect(avalancheNodeIdFromPem(tls.certificatePem)).toBe(first.chainNodeId);
      expect(tls.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(createPublicKey(tls.keyPem).export({ type: 'spki', format: 'der' })).toEqual(certificate.publicKey.export({ type: 'spki', format: 'der' }));
      expect(certificate.checkPrivateKey(createPrivateKey(tls.keyPem))).toBe(true);
      await expect(platform.bus.request('staking.validator-tls', { nodeId: 'node-00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
        'no validator node-00000000-0000-4000-8000-000000000000',
      );
    });

    it("lists the user's validators of the network, oldest first, without their passwords", async () => {
      const mine = (await staking.http.get(`${fuji}/validators`).set(asAlice()).expect(200)).body as Array<Record<string, unknown>>;
      expect(mine.map((each) => each.nodeId)).toEqual([first.nodeId, second.nodeId]);
      expect(mine.every((each) => !('nodePass' in each))).toBe(true);
      expect((await staking.http.get('/staking/avalanche/mainnet/validators').set(asAlice()).expect(200)).body).toEqual([]);
      const fetched = (await staking.http.get(`${fuji}/validators/${first.nodeId}`).set(asAlice()).expect(200)).body as Record<string, unknown>;
      expect(fetched).toMatchObject({ nodeId: first.nodeId, chainNodeId: first.chainNodeId, nodeUser: first.nodeUser, state: 'provisioning' });
      expect(fetched).not.toHaveProperty('nodePass');
    });

    it('hides a validator from another user and from another network: 404, never 403', async () => {
      expect((await staking.http.get(`${fuji}/validators`).set(bearer(bob.clientToken)).expect(200)).body).toEqual([]);
      for (const [token, base] of [
        [bob.clientToken, fuji],
        [alice.clientToken, '/staking/avalanche/mainnet'],
      ] as const) {
        for (const call of [staking.http.get(`${base}/validators/${first.nodeId}`), staking.http.delete(`${base}/validators/${first.nodeId}`)]) {
          const response = await call.set(bearer(token));
          expect(response.status).toBe(404);
          expect(response.body).toEqual({ code: 'NotFound', message: `no validator ${first.nodeId}` });
        }
      }
      expect((await staking.service.db('validators').where({ id: first.nodeId }).first('deleted_at')) as unknown).toEqual({ deleted_at: null });
    });

    it('refuses a validator beyond the limit with 403 LimitExceeded, over every network', async () => {
      const response = await staking.http.post('/staking/avalanche/mainnet/validators').set(asAlice());
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ code: 'LimitExceeded', message: expect.stringContaining('2') });
    });

    it('holds the limit under concurrent creations', async () => {
      const carol = await platform.user();
      const answers = await Promise.all([1, 2, 3].map(() => staking.http.post(`${fuji}/validators`).set(bearer(carol.clientToken))));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 403]);
      const [{ count }] = (await staking.service.db('validators').where({ user_id: carol.id }).count({ count: '*' })) as [{ count: string | number }];
      expect(Number(count)).toBe(2);
    });

    it('records an event of every call, as cloud-staking, at the accounts service', async () => {
      await staking.service.recorder.drain();
      await waitUntil(
        'the staking calls are in the event list',
        async () => {
          const events = (await platform.accounts.http.get('/users/me/events?service=cloud-staking&limit=500').set(bearer(alice.accountToken)).expect(200))
            .body as Array<{
            service: string;
            input: { method: string; route: string; resourceId?: string };
            output: { httpStatusCode: number };
          }>;
          return (
            events.every((event) => event.service === 'cloud-staking') &&
            events.some(
              (event) => event.input.route === '/staking/:chain/:network/validators' && event.input.method === 'POST' && event.output.httpStatusCode === 200,
            ) &&
            events.some((event) => event.input.method === 'POST' && event.output.httpStatusCode === 403) &&
            events.some((event) => event.input.method === 'POST' && event.output.httpStatusCode === 400) &&
            events.some(
              (event) =>
                event.input.route === '/staking/:chain/:network/validators/:nodeId' &&
                event.input.resourceId === first.nodeId &&
                event.output.httpStatusCode === 404,
            ) &&
            events.some((event) => event.input.route === '/staking/:chain/chains' && event.output.httpStatusCode === 200)
          );
        },
        15_000,
        100,
      );
    });
  });
});
