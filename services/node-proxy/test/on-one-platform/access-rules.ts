import { isDeepStrictEqual } from 'node:util';
import type { NodeProxy } from '../../src';
import { basic, callProxy, type ProxyCall } from '../client';
import { corsCheck, preflightFailure } from '@cloud/http/testing';
import { waitUntil, type CreatedNode, type ProxyPlatform, type TestUser } from '../harness';
import { sharedProxyPlatform } from '../shared-platform';
import { openSocket } from '../websocket-client';

const call = (id: number, method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });
const APP = 'https://app.example';

// An owner's access rules and credentials, set through the nodes API and applied by every proxy
// replica in front of a real node (anvil): IP allowlist, CORS, refused methods, rate, revocation.
describe("the proxy applies each node's access rules and credentials", () => {
  let platform: ProxyPlatform;
  /** Behind an ingress: the client address is the last X-Forwarded-For entry. */
  let trusting: NodeProxy;
  /** Reached directly: the client address is the peer's. */
  let direct: NodeProxy;
  let user: TestUser;
  let node: CreatedNode;
  let auth: string;

  beforeAll(async () => {
    platform = sharedProxyPlatform();
    [trusting, direct] = await Promise.all([platform.startProxy({ TRUST_PROXY: 'true' }), platform.startProxy()]);
    user = await platform.user();
    node = await platform.createNode(user, { image: 'eth' });
    auth = `${node.nodeUser}:${node.nodePass}`;
  }, 120_000);
  afterAll(() => platform?.close());

  const rpc = (proxy: NodeProxy, extra: Partial<ProxyCall> = {}, body: unknown = call(1, 'eth_chainId')) =>
    callProxy(proxy, 'eth', { host: node.address, auth, body, ...extra });
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  /** Sets the node's rules through the API; resolves once every replica applied them, and says how long that took. */
  async function setAccess(rules: Record<string, unknown>, proxies = [trusting, direct]): Promise<number> {
    const answer = await platform.nodes.http
      .put(`/users/me/nodes/${node.id}/access`)
      .set('authorization', `Bearer ${user.clientToken}`)
      .send(rules)
      .expect(200);
    const started = Date.now();
    const expected = answer.body.access as { ratePerSecond: number | null };
    await waitUntil(
      'every replica to apply the rules',
      () => proxies.every((proxy) => isDeepStrictEqual(proxy.context.table.get(node.id)?.access, expected)),
      5_000,
      10,
    );
    return Date.now() - started;
  }

  const forbidden = (answer: { status: number; body: unknown }) =>
    expect(answer).toMatchObject({ status: 403, body: { code: 'Forbidden', message: expect.any(String) } });

  describe('IP allowlist', () => {
    afterAll(() => setAccess({}));

    it('takes calls from a listed address only, reaching every replica within a second', async () => {
      expect(await setAccess({ ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] })).toBeLessThan(1_000);
      expect(await rpc(trusting, from('203.0.113.9'))).toMatchObject({ status: 200, body: { result: '0x7a69' } });
      expect(await rpc(trusting, from('2001:db8::5'))).toMatchObject({ status: 200 });
      forbidden(await rpc(trusting, from('198.51.100.1')));
      forbidden(await rpc(trusting, from('2001:db9::1')));
      // The ingress appends the address it saw: earlier entries are the caller's to write.
      forbidden(await rpc(trusting, from('203.0.113.9, 198.51.100.1')));
      // Refused before its credentials are looked at: wrong ones get 403, not 401, and are not counted.
      forbidden(await rpc(trusting, { ...from('198.51.100.1'), auth: `${node.nodeUser}:wrong` }));
      // Without TRUST_PROXY the header is the caller's own: the peer (127.0.0.1) is not listed.
      forbidden(await rpc(direct, from('203.0.113.9')));
    });

    it('tells loopback peers apart by their real address', async () => {
      await setAccess({ ipAllowlist: ['127.0.0.2'] });
      expect(await rpc(direct, { localAddress: '127.0.0.2' })).toMatchObject({ status: 200, body: { result: '0x7a69' } });
      const refused = await rpc(direct, { localAddress: '127.0.0.1' });
      forbidden(refused);
      expect((refused.body as { message: string }).message).toBe(`node ${node.id} takes no calls from 127.0.0.1`);
      // The management port of the node too.
      forbidden(await callProxy(direct, 'management', { host: node.address, auth, path: '/status', localAddress: '127.0.0.1' }));
      expect(await callProxy(direct, 'management', { host: node.address, auth, path: '/status', localAddress: '127.0.0.2' })).toMatchObject({ status: 200 });
    });

    it('closes an open WebSocket whose address the owner takes off the list', async () => {
      await setAccess({ ipAllowlist: ['127.0.0.0/8'] });
      const open = await openSocket(direct, node.address, basic(auth));
      await setAccess({ ipAllowlist: ['127.0.0.2/32'] });
      expect(await open.closed).toBe(1008);
    });

    it('applies the rules in a replica started later, loaded with the routes', async () => {
      await setAccess({ ipAllowlist: ['203.0.113.0/24'] });
      const late = await platform.startProxy({ TRUST_PROXY: 'true' });
      expect(await rpc(late, from('203.0.113.1'))).toMatchObject({ status: 200 });
      forbidden(await rpc(late, from('198.51.100.1')));
    });
  });

  describe('CORS', () => {
    beforeAll(() => setAccess({ originAllowlist: [APP] }));
    afterAll(() => setAccess({}));

    const preflight = (origin: string | undefined, extra: Partial<ProxyCall> = {}) =>
      callProxy(direct, 'eth', {
        host: node.address,
        method: 'OPTIONS',
        headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
        ...extra,
      });

    it("answers an allowed origin's preflight without credentials, and its call, as a browser requires", async () => {
      const answer = await preflight(APP);
      expect(preflightFailure(answer.status, answer.headers, { origin: APP, method: 'POST', headers: ['authorization', 'content-type'] })).toBeUndefined();
      expect(answer.status).toBe(204);
      expect(answer.headers).toMatchObject({ 'access-control-allow-origin': APP, 'access-control-max-age': '600', vary: 'Origin' });
      expect(answer.headers['access-control-allow-methods']).toContain('POST');
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();

      const actual = await rpc(direct, { headers: { origin: APP } });
      expect(actual).toMatchObject({ status: 200, body: { result: '0x7a69' } });
      expect(corsCheck(actual.headers, APP)).toBe(true);
      expect(actual.headers.vary).toBe('Origin');
      // An error the page should read (wrong credentials) carries the headers too.
      const refused = await rpc(direct, { headers: { origin: APP }, auth: `${node.nodeUser}:wrong` });
      expect(refused.status).toBe(401);
      expect(corsCheck(refused.headers, APP)).toBe(true);
    });

    it('looks the node up once for a preflight', async () => {
      // Every way a request names its node (Host, URL token, Basic user) is a lookup in the table.
      const lookups = (['get', 'byUrlToken', 'byNodeUser'] as const).map((name) => jest.spyOn(direct.context.table, name));
      try {
        expect((await preflight(APP)).status).toBe(204);
        expect(lookups.reduce((calls, lookup) => calls + lookup.mock.calls.length, 0)).toBe(1);
      } finally {
        for (const lookup of lookups) lookup.mockRestore();
      }
    });

    it("gives another origin no CORS headers: its preflight fails the browser's check, and its call is 403", async () => {
      const evil = 'https://evil.example';
      const answer = await preflight(evil);
      expect(preflightFailure(answer.status, answer.headers, { origin: evil, method: 'POST', headers: ['authorization', 'content-type'] })).toBe(
        'the CORS check fails',
      );
      forbidden(answer);
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(answer.headers.vary).toBe('Origin');

      const actual = await rpc(direct, { headers: { origin: evil } });
      forbidden(actual);
      expect(actual.headers['access-control-allow-origin']).toBeUndefined();
      // An origin is compared whole: a prefix of an allowed one is another origin.
      forbidden(await rpc(direct, { headers: { origin: `${APP}.evil.example` } }));
    });

    it('refuses an allowed origin from an address outside the IP allowlist, preflight and call, saying Vary: Origin', async () => {
      await setAccess({ originAllowlist: [APP], ipAllowlist: ['203.0.113.0/24'] });
      for (const answer of [await preflight(APP), await rpc(direct, { headers: { origin: APP } })]) {
        forbidden(answer);
        expect(answer.headers.vary).toBe('Origin');
        expect(corsCheck(answer.headers, APP)).toBe(false);
      }
      await setAccess({ originAllowlist: [APP] });
    });

    it("serves a call without Origin (not a browser's cross-origin call) as before, saying Vary: Origin", async () => {
      const answer = await rpc(direct);
      expect(answer).toMatchObject({ status: 200, headers: { vary: 'Origin' } });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('leaves a node without origin rules without CORS: its preflight is 401 as before', async () => {
      const other = await platform.createNode(user, { image: 'eth', jwt: true }, false);
      const answer = await callProxy(direct, 'eth', {
        host: other.address,
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      expect(answer.status).toBe(401);
      expect(corsCheck(answer.headers, APP)).toBe(false);
      expect(answer.headers.vary).toBeUndefined();
    });
  });

  it('refuses the methods its owner refuses with -32601, over HTTP, in a batch and over WebSocket', async () => {
    await setAccess({ refusedMethods: ['eth_getBalance'] });
    const balance = call(2, 'eth_getBalance', ['0x0000000000000000000000000000000000000000', 'latest']);
    // `data` says the owner's rule refused it, not the platform.
    const byRule = {
      refusedBy: 'accessRule',
      method: 'eth_getBalance',
      message: 'the method "eth_getBalance" does not exist/is not available on this hosted node',
    };
    expect(await rpc(direct, {}, balance)).toMatchObject({
      status: 200,
      body: { id: 2, error: { code: -32601, message: 'method "eth_getBalance" is not allowed on this hosted node', data: byRule } },
    });
    expect(await rpc(direct, {}, { ...balance, method: 'ETH_GETBALANCE' })).toMatchObject({ body: { error: { code: -32601 } } });
    const batch = await rpc(direct, {}, [call(1, 'eth_chainId'), balance]);
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'method "eth_getBalance" is not allowed on this hosted node', data: byRule } },
    ]);
    const { ws, box } = await openSocket(direct, node.address, basic(auth));
    ws.send(JSON.stringify(balance));
    expect(await box.next('a refusal', (m) => !Array.isArray(m) && m.id === 2)).toMatchObject({ error: { code: -32601 } });
    ws.close();
    await setAccess({});
    expect(await rpc(direct, {}, balance)).toMatchObject({ body: { id: 2, result: '0x0' } });
  });

  it("holds the node to its owner's lower rate: 429 sooner", async () => {
    const burst = async () => (await Promise.all(Array.from({ length: 8 }, () => rpc(direct)))).map((answer) => answer.status);
    expect(await burst()).toEqual(Array(8).fill(200));
    // 1 call a second: the burst scales with it (the operator's 200 for 100/s makes 2).
    await setAccess({ ratePerSecond: 1 });
    const statuses = await burst();
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
    const limited = await rpc(direct);
    expect(limited).toMatchObject({
      status: 429,
      body: { code: 'TooManyRequests', message: "over this node's rate of 1 calls per second" },
      headers: { 'retry-after': '1' },
    });
    // Back to the operator's rate, the bucket refills at it (the proxy's clock is the test's).
    await setAccess({});
    platform.clock.advance(2_000); // a full bucket again for the tests after this one
    expect((await rpc(direct)).status).toBe(200);
  });

  it("stops an answer over its owner's bound with -32005 in the node's dialect, alone and in a batch beside a refusal", async () => {
    // The finding: an allowed eth_call with a state override, 300 bytes asking the node for an
    // answer of 8 KiB (its code returns 8,192 zero bytes); a million is as cheap to ask for.
    const override = { '0x00000000000000000000000000000000000000aa': { code: '0x6120006000f3' } };
    const big = call(3, 'eth_call', [{ to: '0x00000000000000000000000000000000000000aa', data: '0x' }, 'latest', override]);
    expect(await rpc(direct, {}, big)).toMatchObject({ status: 200, body: { id: 3, result: `0x${'0'.repeat(16_384)}` } });

    await setAccess({ maxAnswerBytes: 4096 });
    const tooLarge = (id: number) => ({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32005,
        message: expect.stringContaining("larger than this node's limit of 4096 bytes"),
        data: { refusedBy: 'accessRule', answerLimitBytes: 4096, answerBytes: expect.any(Number) },
      },
    });
    expect(await rpc(direct, {}, big)).toMatchObject({ status: 200, body: tooLarge(3) });
    // A batch is answered or refused whole by the node, so each call it answered gets the error;
    // the proxy's own refusal keeps its place (this batch takes the path that merges the two).
    const batch = await rpc(direct, {}, [call(1, 'eth_chainId'), big, call(4, 'admin_peers')]);
    expect(batch.body).toEqual([tooLarge(1), tooLarge(3), expect.objectContaining({ id: 4, error: expect.objectContaining({ code: -32601 }) })]);
    // Small answers pass as before.
    expect(await rpc(direct)).toMatchObject({ status: 200, body: { result: '0x7a69' } });
    // Over a WebSocket the answer cannot be refused apart from the socket: it is closed, 1009, saying why.
    const { ws, closed } = await openSocket(direct, node.address, basic(auth));
    const reason = new Promise<string>((resolve) => ws.once('close', (_code, why) => resolve(why.toString())));
    ws.send(JSON.stringify(big));
    expect(await closed).toBe(1009);
    expect(await reason).toBe("the node's answer is larger than this node's limit of 4096 bytes");
    await setAccess({});
    expect(await rpc(direct, {}, big)).toMatchObject({ body: { result: expect.stringMatching(/^0x0+$/) } });
  });

  it('takes every credential of the node; a revoked one fails on every replica within a second while the other works', async () => {
    const nodesApi = (method: 'get' | 'post' | 'delete', path: string) =>
      platform.nodes.http[method](`/users/me/nodes/${node.id}/credentials${path}`).set('authorization', `Bearer ${user.clientToken}`);
    const second = (await nodesApi('post', '').send({ name: 'dapp' }).expect(200)).body as { id: string; nodeUser: string; nodePass: string };
    const secondAuth = `${second.nodeUser}:${second.nodePass}`;
    await waitUntil(
      'the replicas to take the new credential',
      async () => {
        const answers = await Promise.all([trusting, direct].map((proxy) => rpc(proxy, { auth: secondAuth })));
        return answers.every((answer) => answer.status === 200);
      },
      5_000,
      20,
    );
    expect((await rpc(direct)).status).toBe(200);
    // The caller is known by the credential it presented (usage per credential).
    const { credentialId } = await direct.context.auth
      .check(direct.context.table.get(node.id)!, basic(secondAuth))
      .then((result) => (result.ok ? result : { credentialId: undefined }));
    expect(credentialId).toBe(second.id);
    // Two credentials of one node never open each other's door.
    expect((await rpc(direct, { auth: `${second.nodeUser}:${node.nodePass}` })).status).toBe(401);

    const [first] = (await nodesApi('get', '').expect(200)).body as Array<{ id: string }>;
    const open = await openSocket(direct, node.address, basic(auth));
    await nodesApi('delete', `/${first!.id}`).expect(200);
    const started = Date.now();
    await waitUntil(
      'the revocation to reach every replica',
      async () => (await Promise.all([trusting, direct].map((proxy) => rpc(proxy)))).every((answer) => answer.status === 401),
      5_000,
      20,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await open.closed).toBe(1008);
    for (const proxy of [trusting, direct]) {
      expect(await rpc(proxy)).toMatchObject({ status: 401, body: { code: 'Unauthorized', message: 'wrong node credentials' } });
      expect(await rpc(proxy, { auth: secondAuth })).toMatchObject({ status: 200, body: { result: '0x7a69' } });
    }
  });
});
