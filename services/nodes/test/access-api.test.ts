import type { AnyBusMessage, NodeRoute } from '@cloud/bus';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';

interface Credential {
  id: string;
  name: string;
  kind: 'basic' | 'token';
  nodeUser?: string;
  createdAt: string;
  nodePass?: string;
  token?: string;
  urls?: { jsonRpc: string; webSocket?: string; plain?: { jsonRpc: string; webSocket?: string } };
}

// A node's access rules and named credentials through the nodes API: what is stored, what the
// node-proxy hears (the route), and every refusal with its status and field.
describe('node access rules and credentials API', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let alice: TestUser;
  let bob: TestUser;
  let heard: AnyBusMessage[];
  let basicNode: { id: string; nodeUser: string; nodePass: string };
  let jwtNode: { id: string };

  beforeAll(async () => {
    platform = await startTestPlatform();
    heard = [];
    await platform.bus.subscribe({ name: 'access-api-test', bindings: ['node.*', 'call.recorded'], handle: async (messages) => void heard.push(...messages) });
    nodes = await platform.startNodes({ MAX_CREDENTIALS_PER_NODE: '3', NODE_MAX_RATE_PER_SECOND: '50', NODE_MAX_ANSWER_BYTES: '1048576' });
    [alice, bob] = [await platform.user(), await platform.user()];
    const create = async (jwt: boolean) => {
      const response = await nodes.http.post('/users/me/nodes').set(bearer(alice.clientToken)).send({ image: 'eth', jwt });
      expect(response.body).toMatchObject({ jwt });
      return response.body;
    };
    basicNode = await create(false);
    jwtNode = await create(true);
  });
  afterAll(() => platform.close());

  const asAlice = () => bearer(alice.clientToken);
  const routesOf = (kind: AnyBusMessage['kind'], id: string) =>
    heard.filter((each) => each.kind === kind && (each.payload as NodeRoute).nodeId === id).map((each) => each.payload as NodeRoute);
  // The revision also rises as the node comes up, so "changed nothing" compares the rules alone.
  const rules = async (id: string) => (await nodes.service.db('nodes').where({ id }).first('access', 'credentials')) as Record<string, unknown>;
  const stored = async (id: string) =>
    (await nodes.service.db('nodes').where({ id }).first('access', 'credentials', 'revision')) as {
      access: unknown;
      credentials: Array<Record<string, string>>;
      revision: number;
    };

  describe('access rules', () => {
    it('stores the rules normalised, shows them in the node record, and announces them in the route', async () => {
      const before = await stored(basicNode.id);
      const response = await nodes.http
        .put(`/users/me/nodes/${basicNode.id}/access`)
        .set(asAlice())
        .send({
          ipAllowlist: ['203.0.113.7', '10.1.2.3/8', '2001:DB8:0:0::1/32', '10.0.0.0/8'],
          originAllowlist: ['https://App.Example.com', 'http://localhost:3000/', 'https://example.org:443'],
          refusedMethods: ['getBlockCount', 'getblockcount', 'eth_getLogs'],
          ratePerSecond: 5,
          maxAnswerBytes: 65_536,
        });
      expect(response.status).toBe(200);
      const access = {
        ipAllowlist: ['203.0.113.7/32', '10.0.0.0/8', '2001:db8::/32'],
        originAllowlist: ['https://app.example.com', 'http://localhost:3000', 'https://example.org'],
        refusedMethods: ['getblockcount', 'eth_getlogs'],
        ratePerSecond: 5,
        maxAnswerBytes: 65_536,
      };
      expect(response.body).toMatchObject({ id: basicNode.id, access });
      expect((await nodes.http.get(`/users/me/nodes/${basicNode.id}`).set(asAlice()).expect(200)).body.access).toEqual(access);
      expect((await nodes.http.get(`/users/me/nodes/${basicNode.id}/access`).set(asAlice()).expect(200)).body).toEqual(access);
      const after = await stored(basicNode.id);
      expect(after.access).toEqual(access);
      expect(after.revision).toBeGreaterThan(before.revision);

      await waitUntil('node.access-changed is heard', () => routesOf('node.access-changed', basicNode.id).length === 1, 10_000);
      expect(routesOf('node.access-changed', basicNode.id)).toEqual([expect.objectContaining({ revision: expect.any(Number), access })]);
      const snapshot = await platform.bus.request('nodes.routes', { limit: 100 });
      expect(snapshot.routes.find((route) => route.nodeId === basicNode.id)).toMatchObject({ access });

      // Set whole: what is left out is emptied.
      const cleared = await nodes.http.put(`/users/me/nodes/${basicNode.id}/access`).set(asAlice()).send({ ratePerSecond: 50 }).expect(200);
      expect(cleared.body.access).toEqual({ ipAllowlist: [], originAllowlist: [], refusedMethods: [], ratePerSecond: 50, maxAnswerBytes: null });
    });

    it.each([
      ['an address that is no address', { ipAllowlist: ['10.0.0.0/8', '10.0.0.256'] }, 'body.ipAllowlist.1'],
      ['a prefix too long', { ipAllowlist: ['10.0.0.0/33'] }, 'body.ipAllowlist.0'],
      ['a short IPv4 form', { ipAllowlist: ['127.1'] }, 'body.ipAllowlist.0'],
      ['an IPv4-mapped range', { ipAllowlist: ['::ffff:10.0.0.0/104'] }, 'body.ipAllowlist.0'],
      ['an origin with a path', { originAllowlist: ['https://app.example.com/page'] }, 'body.originAllowlist.0'],
      ['a wildcard origin', { originAllowlist: ['*'] }, 'body.originAllowlist.0'],
      ['a wildcard host', { originAllowlist: ['https://*.example.com'] }, 'body.originAllowlist.0'],
      ['an origin of another scheme', { originAllowlist: ['ftp://example.com'] }, 'body.originAllowlist.0'],
      ['a method name with a space', { refusedMethods: ['eth call'] }, 'body.refusedMethods.0'],
      ["a rate above the platform's", { ratePerSecond: 51 }, 'body.ratePerSecond'],
      ['a rate of zero', { ratePerSecond: 0 }, 'body.ratePerSecond'],
      ['a rate that is not a number', { ratePerSecond: '5' }, 'body.ratePerSecond'],
      ["an answer bound above the platform's", { maxAnswerBytes: 1_048_577 }, 'body.maxAnswerBytes: must be at most 1048576'],
      ['an answer bound too small for a block header', { maxAnswerBytes: 4095 }, 'body.maxAnswerBytes'],
      ['an answer bound that is no whole number', { maxAnswerBytes: 5000.5 }, 'body.maxAnswerBytes'],
      ['a field it does not know', { ipAllowList: [] }, 'body'],
    ])('refuses %s with 400 naming the field, changing nothing', async (_what, body, field) => {
      const before = await rules(basicNode.id);
      const response = await nodes.http.put(`/users/me/nodes/${basicNode.id}/access`).set(asAlice()).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'InvalidInput', message: expect.stringContaining(`${field}`) });
      expect(await rules(basicNode.id)).toEqual(before);
    });

    it("reads rules stored before answer bounds existed as having none (the platform's)", async () => {
      await nodes.service
        .db('nodes')
        .where({ id: basicNode.id })
        .update({ access: JSON.stringify({ ipAllowlist: [], originAllowlist: [], refusedMethods: ['eth_getlogs'], ratePerSecond: null }) });
      const shown = (await nodes.http.get(`/users/me/nodes/${basicNode.id}/access`).set(asAlice()).expect(200)).body;
      expect(shown).toEqual({ ipAllowlist: [], originAllowlist: [], refusedMethods: ['eth_getlogs'], ratePerSecond: null, maxAnswerBytes: null });
      await nodes.http.put(`/users/me/nodes/${basicNode.id}/access`).set(asAlice()).send({}).expect(200);
    });

    it('sets rules on a jwt node too', async () => {
      const response = await nodes.http
        .put(`/users/me/nodes/${jwtNode.id}/access`)
        .set(asAlice())
        .send({ originAllowlist: ['https://dapp.example'] });
      expect(response.status).toBe(200);
      expect(response.body.access.originAllowlist).toEqual(['https://dapp.example']);
    });
  });

  describe('credentials', () => {
    it("lists the node's first credential as default, never with its password or hash", async () => {
      const response = await nodes.http.get(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).expect(200);
      expect(response.body).toEqual([
        { id: expect.stringMatching(/^cred-/), name: 'default', kind: 'basic', nodeUser: basicNode.nodeUser, createdAt: expect.stringMatching(/Z$/) },
      ]);
    });

    it('adds named credentials, the password shown once and stored as its SHA-256, up to the cap', async () => {
      const created = await nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).send({ name: 'ci server' });
      expect(created.status).toBe(200);
      const ci = created.body as Credential;
      expect(ci).toEqual({
        id: expect.stringMatching(/^cred-/),
        name: 'ci server',
        kind: 'basic',
        nodeUser: expect.stringMatching(/^u[0-9a-f]{16}$/),
        nodePass: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        createdAt: expect.any(String),
      });
      const row = await stored(basicNode.id);
      expect(row.credentials[1]).toEqual({
        kind: 'basic',
        id: ci.id,
        name: 'ci server',
        user: ci.nodeUser,
        passwordSha256: sha256(ci.nodePass!),
        createdAt: ci.createdAt,
      });
      expect(JSON.stringify(row)).not.toContain(ci.nodePass);

      const duplicate = await nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).send({ name: 'ci server' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({ code: 'Conflict', message: expect.stringContaining('ci server') });

      await nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).send({ name: 'dapp' }).expect(200);
      const over = await nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).send({ name: 'one more' });
      expect(over.status).toBe(403);
      expect(over.body).toEqual({ code: 'LimitExceeded', message: expect.stringContaining('3 credentials') });
      const listed = (await nodes.http.get(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).expect(200)).body as Credential[];
      expect(listed.map((each) => each.name)).toEqual(['default', 'ci server', 'dapp']);
      expect(listed.every((each) => !('nodePass' in each))).toBe(true);
    });

    it.each([
      ['no name', {}],
      ['an empty name', { name: '' }],
      ['a name with a slash', { name: 'a/b' }],
      ['a name too long', { name: 'x'.repeat(65) }],
      ['another field', { name: 'ok', secret: 'mine' }],
      ['an unknown kind', { name: 'ok', kind: 'jwt' }],
      ['a kind that is not a string', { name: 'ok', kind: 1 }],
    ])('refuses %s with 400', async (_what, body) => {
      const response = await nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'InvalidInput', message: expect.stringContaining('body') });
    });

    it('revokes one credential, keeping the others; an unknown one is 404 and the last one 409', async () => {
      const listed = (await nodes.http.get(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).expect(200)).body as Credential[];
      const [first, second, third] = listed;
      const left = await nodes.http.delete(`/users/me/nodes/${basicNode.id}/credentials/${first!.id}`).set(asAlice()).expect(200);
      expect((left.body as Credential[]).map((each) => each.id)).toEqual([second!.id, third!.id]);
      // The route announces the rest, its first as `basic`.
      const rest = (route: NodeRoute) => route.credentials?.map((each) => each.id).join() === `${second!.id},${third!.id}`;
      await waitUntil('the revocation is heard', () => routesOf('node.credentials-changed', basicNode.id).some(rest), 10_000);
      const route = routesOf('node.credentials-changed', basicNode.id).find(rest)!;
      expect(route.basic).toEqual({ user: second!.nodeUser, passwordSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

      const unknown = await nodes.http.delete(`/users/me/nodes/${basicNode.id}/credentials/${first!.id}`).set(asAlice());
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 'NotFound', message: `node ${basicNode.id} has no credential ${first!.id}` });
      await nodes.http.delete(`/users/me/nodes/${basicNode.id}/credentials/${second!.id}`).set(asAlice()).expect(200);
      const last = await nodes.http.delete(`/users/me/nodes/${basicNode.id}/credentials/${third!.id}`).set(asAlice());
      expect(last.status).toBe(409);
      expect(last.body).toEqual({ code: 'Conflict', message: expect.stringContaining('last credential') });
      expect((await stored(basicNode.id)).credentials.map((each) => each.id)).toEqual([third!.id]);
    });

    it("answers 409 for a jwt node, which takes its owner's client access tokens", async () => {
      for (const call of [
        nodes.http.get(`/users/me/nodes/${jwtNode.id}/credentials`),
        nodes.http.post(`/users/me/nodes/${jwtNode.id}/credentials`).send({ name: 'x' }),
        nodes.http.post(`/users/me/nodes/${jwtNode.id}/credentials`).send({ name: 'x', kind: 'token' }),
        nodes.http.post(`/users/me/nodes/${jwtNode.id}/credentials/cred-x/rotate`),
        nodes.http.delete(`/users/me/nodes/${jwtNode.id}/credentials/cred-x`),
      ]) {
        const response = await call.set(asAlice());
        expect(response.status).toBe(409);
        expect(response.body).toEqual({ code: 'Conflict', message: expect.stringContaining('client access tokens (jwt)') });
      }
      expect((await stored(jwtNode.id)).credentials).toEqual([]);
    });
  });

  describe('URL tokens and rotation', () => {
    let node: {
      id: string;
      nodeUser: string;
      nodePass: string;
      endpoints: { jsonRpc: string; webSocket?: string; plain?: { jsonRpc: string; webSocket?: string } };
    };
    const secrets: string[] = [];
    const hashes: string[] = [];
    const base = (url: string) => url.replace(/\/$/, '');

    beforeAll(async () => {
      node = (await nodes.http.post('/users/me/nodes').set(asAlice()).send({ image: 'eth' }).expect(200)).body;
      secrets.push(node.nodePass);
    });

    it("creates a URL token: shown once with the node's URLs, stored and announced as its SHA-256 only, listed without it", async () => {
      const response = await nodes.http.post(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).send({ name: 'dapp', kind: 'token' });
      expect(response.status).toBe(200);
      const created = response.body as Credential;
      const token = created.token!;
      secrets.push(token);
      hashes.push(sha256(token));
      expect(token).toMatch(/^nt_[A-Za-z0-9_-]{43}$/);
      const { endpoints } = node;
      expect(created).toEqual({
        id: expect.stringMatching(/^cred-/),
        name: 'dapp',
        kind: 'token',
        token,
        urls: {
          jsonRpc: `${base(endpoints.jsonRpc)}/${token}`,
          webSocket: `${base(endpoints.webSocket!)}/${token}`,
          ...(endpoints.plain
            ? { plain: { jsonRpc: `${base(endpoints.plain.jsonRpc)}/${token}`, webSocket: `${base(endpoints.plain.webSocket!)}/${token}` } }
            : {}),
        },
        createdAt: expect.stringMatching(/Z$/),
      });
      const row = await stored(node.id);
      expect(row.credentials[1]).toEqual({ kind: 'token', id: created.id, name: 'dapp', tokenSha256: sha256(token), createdAt: created.createdAt });
      expect(JSON.stringify(row)).not.toContain(token);

      const listed = await nodes.http.get(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).expect(200);
      expect(listed.body).toEqual([
        { id: expect.any(String), name: 'default', kind: 'basic', nodeUser: node.nodeUser, createdAt: expect.any(String) },
        { id: created.id, name: 'dapp', kind: 'token', createdAt: created.createdAt },
      ]);
      expect(JSON.stringify(listed.body)).not.toContain(sha256(token));
      expect(JSON.stringify((await nodes.http.get(`/users/me/nodes/${node.id}`).set(asAlice()).expect(200)).body)).not.toContain(token);

      const hasToken = (route: NodeRoute) => route.tokens?.some((each) => each.id === created.id) ?? false;
      await waitUntil('the token is announced', () => routesOf('node.credentials-changed', node.id).some(hasToken), 10_000);
      const route = routesOf('node.credentials-changed', node.id).find(hasToken)!;
      expect(route.tokens).toEqual([{ id: created.id, tokenSha256: sha256(token) }]);
      expect(route.credentials).toEqual([{ id: expect.any(String), user: node.nodeUser, passwordSha256: sha256(node.nodePass) }]);
      expect(route.basic).toEqual({ user: node.nodeUser, passwordSha256: sha256(node.nodePass) });
      const snapshot = await platform.bus.request('nodes.routes', { limit: 100 });
      expect(snapshot.routes.find((each) => each.nodeId === node.id)?.tokens).toEqual(route.tokens);
    });

    it('rotates a token and a Basic credential: same id, name and kind (and user name), a new secret once, the old hash gone from the route', async () => {
      const [basic, dapp] = (await nodes.http.get(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).expect(200)).body as Credential[];
      const oldHash = (await stored(node.id)).credentials[1]!.tokenSha256!;
      const rotated = (await nodes.http.post(`/users/me/nodes/${node.id}/credentials/${dapp!.id}/rotate`).set(asAlice()).expect(200)).body as Credential;
      secrets.push(rotated.token!);
      hashes.push(sha256(rotated.token!));
      expect(rotated).toMatchObject({
        id: dapp!.id,
        name: 'dapp',
        kind: 'token',
        createdAt: dapp!.createdAt,
        token: expect.stringMatching(/^nt_[A-Za-z0-9_-]{43}$/),
      });
      expect(sha256(rotated.token!)).not.toBe(oldHash);
      expect(rotated.urls!.jsonRpc).toBe(`${base(node.endpoints.jsonRpc)}/${rotated.token}`);
      const newHash = (route: NodeRoute) => route.tokens?.some((each) => each.tokenSha256 === sha256(rotated.token!)) ?? false;
      await waitUntil('the rotated token is announced', () => routesOf('node.credentials-changed', node.id).some(newHash), 10_000);
      const route = routesOf('node.credentials-changed', node.id).find(newHash)!;
      expect(route.tokens).toEqual([{ id: dapp!.id, tokenSha256: sha256(rotated.token!) }]);
      expect(JSON.stringify(route)).not.toContain(oldHash);

      const password = (await nodes.http.post(`/users/me/nodes/${node.id}/credentials/${basic!.id}/rotate`).set(asAlice()).send({}).expect(200))
        .body as Credential;
      secrets.push(password.nodePass!);
      expect(password).toEqual({
        id: basic!.id,
        name: 'default',
        kind: 'basic',
        nodeUser: node.nodeUser,
        nodePass: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        createdAt: basic!.createdAt,
      });
      expect(password.nodePass).not.toBe(node.nodePass);
      expect((await stored(node.id)).credentials[0]).toMatchObject({ user: node.nodeUser, passwordSha256: sha256(password.nodePass!) });
      const newPassword = (each: NodeRoute) => each.basic?.passwordSha256 === sha256(password.nodePass!);
      await waitUntil('the new password is announced', () => routesOf('node.credentials-changed', node.id).some(newPassword), 10_000);
      expect(routesOf('node.credentials-changed', node.id).find(newPassword)!.credentials).toEqual([
        { id: basic!.id, user: node.nodeUser, passwordSha256: sha256(password.nodePass!) },
      ]);

      const unknown = await nodes.http.post(`/users/me/nodes/${node.id}/credentials/cred-nope/rotate`).set(asAlice());
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 'NotFound', message: `node ${node.id} has no credential cred-nope` });
      const withBody = await nodes.http.post(`/users/me/nodes/${node.id}/credentials/${dapp!.id}/rotate`).set(asAlice()).send({ kind: 'basic' });
      expect(withBody.status).toBe(400);
      expect(withBody.body).toEqual({ code: 'InvalidInput', message: expect.stringContaining('body') });
    });

    it('leaves a node with tokens only (basic null in the route), and refuses to remove the last credential of any kind', async () => {
      const [basic, dapp] = (await nodes.http.get(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).expect(200)).body as Credential[];
      const left = await nodes.http.delete(`/users/me/nodes/${node.id}/credentials/${basic!.id}`).set(asAlice()).expect(200);
      expect(left.body).toEqual([{ id: dapp!.id, name: 'dapp', kind: 'token', createdAt: dapp!.createdAt }]);
      const tokensOnly = (route: NodeRoute) => route.basic === null && route.credentials?.length === 0 && route.tokens?.length === 1;
      await waitUntil('the route with tokens only is heard', () => routesOf('node.credentials-changed', node.id).some(tokensOnly), 10_000);
      const last = await nodes.http.delete(`/users/me/nodes/${node.id}/credentials/${dapp!.id}`).set(asAlice());
      expect(last.status).toBe(409);
      expect(last.body).toEqual({ code: 'Conflict', message: expect.stringContaining('last credential') });

      // Basic credentials come back beside the token; the cap counts both kinds.
      const again = (await nodes.http.post(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).send({ name: 'server', kind: 'basic' }).expect(200))
        .body as Credential;
      secrets.push(again.nodePass!);
      expect(again).toMatchObject({ kind: 'basic', nodeUser: expect.stringMatching(/^u[0-9a-f]{16}$/) });
      const third = (await nodes.http.post(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).send({ name: 'mobile', kind: 'token' }).expect(200))
        .body as Credential;
      secrets.push(third.token!);
      hashes.push(sha256(third.token!));
      const over = await nodes.http.post(`/users/me/nodes/${node.id}/credentials`).set(asAlice()).send({ name: 'more', kind: 'token' });
      expect(over.status).toBe(403);
      expect(over.body).toEqual({ code: 'LimitExceeded', message: expect.stringContaining('3 credentials') });
    });

    it('puts no password or token in any message it sent (routes, call events), and no token hash in a call event', async () => {
      await nodes.service.recorder.drain();
      await waitUntil(
        'the call events are heard',
        () => heard.some((each) => each.kind === 'call.recorded' && JSON.stringify(each).includes(`${node.id}`)),
        10_000,
      );
      const everything = JSON.stringify(heard);
      for (const secret of secrets) expect(everything).not.toContain(secret);
      const events = JSON.stringify(heard.filter((each) => each.kind === 'call.recorded'));
      for (const hash of hashes) expect(events).not.toContain(hash);
    });
  });

  it("hides another user's node: 404 on every access and credentials route, nothing changed", async () => {
    const before = await rules(basicNode.id);
    const [credential] = (await nodes.http.get(`/users/me/nodes/${basicNode.id}/credentials`).set(asAlice()).expect(200)).body as Credential[];
    for (const call of [
      nodes.http.get(`/users/me/nodes/${basicNode.id}/access`),
      nodes.http.put(`/users/me/nodes/${basicNode.id}/access`).send({ ipAllowlist: ['0.0.0.0/0'] }),
      nodes.http.get(`/users/me/nodes/${basicNode.id}/credentials`),
      nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).send({ name: 'bobs' }),
      nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).send({ name: 'bobs', kind: 'token' }),
      nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials/${credential!.id}/rotate`),
      nodes.http.delete(`/users/me/nodes/${basicNode.id}/credentials/${credential!.id}`),
    ]) {
      const response = await call.set(bearer(bob.clientToken));
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'NotFound', message: `no node ${basicNode.id}` });
    }
    expect(await rules(basicNode.id)).toEqual(before);
  });
});
