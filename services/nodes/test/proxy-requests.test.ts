import { RpcError, type AnyBusMessage, type NodeRoute } from '@cloud/bus';
import { bearer, sha256, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';

interface CreatedNode {
  id: string;
  nodeUser?: string;
  nodePass?: string;
}

// What the node-proxy gets from the nodes service over the bus: each node's route in every
// lifecycle message, the routing table a page at a time (`nodes.routes`), and logs (`nodes.logs`).
describe("the node-proxy's side of the nodes service", () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;
  let heard: AnyBusMessage[];

  beforeEach(async () => {
    platform = await startTestPlatform();
    heard = [];
    await platform.bus.subscribe({
      name: 'proxy-requests-test',
      bindings: ['node.*'],
      handle: async (messages) => {
        heard.push(...messages);
      },
    });
    nodes = await platform.startNodes({ MAX_NODES_PER_USER: '10' });
    user = await platform.user();
  });
  afterEach(() => platform.close());

  async function create(owner: TestUser, jwt = false): Promise<CreatedNode> {
    return (await nodes.http.post('/users/me/nodes').set(bearer(owner.clientToken)).send({ image: 'eth', jwt }).expect(200)).body as CreatedNode;
  }

  async function awaitState(owner: TestUser, ids: string[], state: string): Promise<void> {
    await waitUntil(
      `${ids.length} nodes are ${state}`,
      async () => {
        const list = (await nodes.http.get('/users/me/nodes').set(bearer(owner.clientToken)).expect(200)).body as Array<{ id: string; state: string }>;
        return ids.every((id) => list.find((node) => node.id === id)?.state === state);
      },
      45_000,
      100,
    );
  }

  async function upstreamOf(id: string): Promise<string> {
    const status = await nodes.service.driver.status(id);
    if (status.state !== 'running') throw new Error(`${id} is ${status.state}`);
    return status.endpoint.url;
  }

  const payloadsOf = (id: string, kind: AnyBusMessage['kind']) =>
    heard.filter((each) => each.kind === kind && 'nodeId' in each.payload && each.payload.nodeId === id).map((each) => each.payload as NodeRoute);

  it('announces every Basic credential with the hash of its password, and a jwt node with none', async () => {
    const basicNode = await create(user);
    const jwtNode = await create(user, true);
    expect(jwtNode.nodeUser).toBeUndefined();
    await awaitState(user, [basicNode.id, jwtNode.id], 'running');

    const added = (await nodes.http.post(`/users/me/nodes/${basicNode.id}/credentials`).set(bearer(user.clientToken)).send({ name: 'ci' }).expect(200))
      .body as { id: string; nodeUser: string; nodePass: string };
    expect(added.nodePass).not.toBe(basicNode.nodePass);
    const [first] = (await nodes.http.get(`/users/me/nodes/${basicNode.id}/credentials`).set(bearer(user.clientToken)).expect(200)).body as Array<{
      id: string;
    }>;
    await waitUntil('node.credentials-changed is heard', () => payloadsOf(basicNode.id, 'node.credentials-changed').length === 1, 10_000);
    const [running] = payloadsOf(basicNode.id, 'node.running');
    const basic = { user: basicNode.nodeUser!, passwordSha256: sha256(basicNode.nodePass!) };
    expect(payloadsOf(basicNode.id, 'node.credentials-changed')).toEqual([
      {
        nodeId: basicNode.id,
        userId: user.id,
        image: 'eth',
        chain: 'eth',
        dev: true,
        revision: running!.revision + 1,
        state: 'running',
        // The first credential stays `basic`, for a replica that predates the list.
        basic,
        upstream: await upstreamOf(basicNode.id),
        credentials: [
          { id: first!.id, ...basic },
          { id: added.id, user: added.nodeUser, passwordSha256: sha256(added.nodePass) },
        ],
      },
    ]);

    await waitUntil("the jwt node's node.running is heard", () => payloadsOf(jwtNode.id, 'node.running').length === 1, 10_000);
    for (const kind of ['node.created', 'node.running'] as const) {
      expect(payloadsOf(jwtNode.id, kind)).toEqual([expect.objectContaining({ userId: user.id, basic: null, credentials: [] })]);
    }
  });

  it('serves the routes of every node not deleted, a page at a time in id order', async () => {
    const other = await platform.user();
    const created = [await create(user), await create(user, true), await create(user), await create(other), await create(other, true), await create(user)];
    await awaitState(user, [created[0]!.id, created[1]!.id, created[2]!.id, created[5]!.id], 'running');
    await awaitState(other, [created[3]!.id, created[4]!.id], 'running');
    const [deleted, ...kept] = created;
    await nodes.http.delete(`/users/me/nodes/${deleted!.id}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil(
      'the deleted node is gone',
      async () => (await nodes.http.get(`/users/me/nodes/${deleted!.id}`).set(bearer(user.clientToken))).status === 404,
      30_000,
      100,
    );

    const expected: NodeRoute[] = [];
    for (const node of kept) {
      const row = (await nodes.service.db('nodes').where({ id: node.id }).first('user_id', 'revision', 'credentials')) as {
        user_id: string;
        revision: number;
        credentials: Array<{ id: string }>;
      };
      expected.push({
        nodeId: node.id,
        userId: row.user_id,
        image: 'eth',
        chain: 'eth',
        dev: true,
        revision: row.revision,
        state: 'running',
        basic: node.nodePass ? { user: node.nodeUser!, passwordSha256: sha256(node.nodePass) } : null,
        upstream: await upstreamOf(node.id),
        credentials: node.nodePass ? [{ id: row.credentials[0]!.id, user: node.nodeUser!, passwordSha256: sha256(node.nodePass) }] : [],
      });
    }
    expected.sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1));
    expect(new Set(expected.map((route) => route.userId))).toEqual(new Set([user.id, other.id]));

    const pages = [];
    let after: string | undefined;
    do {
      const page = await platform.bus.request('nodes.routes', { ...(after ? { after } : {}), limit: 2 });
      pages.push(page);
      after = page.next ?? undefined;
    } while (after);
    expect(pages.map((page) => page.routes.length)).toEqual([2, 2, 1]);
    expect(pages.map((page) => page.next)).toEqual([expected[1]!.nodeId, expected[3]!.nodeId, null]);
    expect(pages.flatMap((page) => page.routes)).toEqual(expected);

    // A page that ends exactly at the last node says there may be more; the next one is empty.
    const whole = await platform.bus.request('nodes.routes', { limit: 5 });
    expect(whole).toEqual({ routes: expected, next: expected[4]!.nodeId });
    expect(await platform.bus.request('nodes.routes', { after: whole.next!, limit: 5 })).toEqual({ routes: [], next: null });
  }, 120_000);

  it("serves a node's log, all of it unless asked for fewer lines, and refuses an unknown or deleted node", async () => {
    const node = await create(user);
    await awaitState(user, [node.id], 'running');
    const isBlock = (line: string) => /Block Number/.test(line);
    await waitUntil('anvil has logged a block', async () => (await nodes.service.driver.logs(node.id, 1000)).some(isBlock), 10_000, 100);

    expect((await platform.bus.request('nodes.logs', { nodeId: node.id, lines: 3 })).lines).toHaveLength(3);
    const whole = (await platform.bus.request('nodes.logs', { nodeId: node.id })).lines;
    // From its very first line: the supervisor's note that it started the software (its port is the operator's only).
    expect(whole[0]).toMatch(/^\[cloud-nodes .*\] started anvil-[\d.]+ as pid \d+$/);
    expect(whole.some(isBlock)).toBe(true);

    const unknown = platform.bus.request('nodes.logs', { nodeId: 'node-00000000-0000-4000-8000-000000000000' });
    await expect(unknown).rejects.toThrow(RpcError);
    await expect(unknown).rejects.toThrow('no node node-00000000-0000-4000-8000-000000000000');

    await nodes.http.delete(`/users/me/nodes/${node.id}`).set(bearer(user.clientToken)).expect(200);
    await waitUntil(
      'the node is gone',
      async () => (await nodes.http.get(`/users/me/nodes/${node.id}`).set(bearer(user.clientToken))).status === 404,
      30_000,
      100,
    );
    await expect(platform.bus.request('nodes.logs', { nodeId: node.id })).rejects.toThrow(`no node ${node.id}`);
  });
});
