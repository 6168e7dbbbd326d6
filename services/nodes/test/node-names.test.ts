import { createHash } from 'node:crypto';
import { message } from '@cloud/bus';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';

// Node names: given at creation, changed or removed with PATCH, shown in the node record and the
// list; the rule (1-64 printable characters, trimmed) refused with 400 naming the field; another
// user's node stays 404; and a name (user data) is kept out of the metrics.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface NodeBody {
  id: string;
  name: string | null;
  large: boolean;
  state: string;
  updatedAt: string;
}

describe('node names', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let alice: TestUser;
  let bob: TestUser;
  let named: NodeBody;

  beforeAll(async () => {
    platform = await startTestPlatform();
    nodes = await platform.startNodes({ MAX_NODES_PER_USER: '5' });
    [alice, bob] = [await platform.user(), await platform.user()];
  });
  afterAll(() => platform.close());

  const asAlice = () => bearer(alice.clientToken);
  const create = (body: object) => nodes.http.post('/users/me/nodes').set(asAlice()).send(body);
  const patch = (id: string, body: unknown, token = alice.clientToken) =>
    nodes.http
      .patch(`/users/me/nodes/${id}`)
      .set(bearer(token))
      .send(body as object);
  const list = async () => (await nodes.http.get('/users/me/nodes').set(asAlice()).expect(200)).body as NodeBody[];
  const rowName = async (id: string) => ((await nodes.service.db('nodes').where({ id }).first('name')) as { name: string | null }).name;

  it('creates a node with a name, trimmed, and shows it in the record and the list', async () => {
    const response = await create({ image: 'btc', jwt: true, name: '  payments-eth (prod) 🚀  ' });
    expect(response.status).toBe(200);
    named = response.body as NodeBody;
    expect(named).toMatchObject({ name: 'payments-eth (prod) 🚀', state: 'provisioning' });
    expect(await rowName(named.id)).toBe('payments-eth (prod) 🚀');
    expect((await nodes.http.get(`/users/me/nodes/${named.id}`).set(asAlice()).expect(200)).body).toMatchObject({
      id: named.id,
      name: 'payments-eth (prod) 🚀',
    });
    expect((await list()).map((node) => [node.id, node.name])).toEqual([[named.id, 'payments-eth (prod) 🚀']]);
  });

  it('creates a node without a name: name null', async () => {
    platform.clock.advance(1000); // lists are oldest first
    const unnamed = (await create({ image: 'eth', jwt: true }).expect(200)).body as NodeBody;
    expect(unnamed.name).toBeNull();
    expect((await list()).map((node) => node.name)).toEqual(['payments-eth (prod) 🚀', null]);
  });

  it('takes a name of 64 characters, counted as characters (not UTF-16 units or bytes)', async () => {
    const longest = 'é🚀'.repeat(32);
    const response = await patch(named.id, { name: longest });
    expect([response.status, (response.body as NodeBody).name]).toEqual([200, longest]);
    expect(await rowName(named.id)).toBe(longest);
  });

  it('renames a node with PATCH {name}, changing nothing else, and removes the name with null', async () => {
    // The node settles first: its start (provisioning → running) and its sync readings are the driver's, not the PATCH's.
    let before: NodeBody | undefined;
    await waitUntil(
      'the node runs',
      async () => (before = (await nodes.http.get(`/users/me/nodes/${named.id}`).set(asAlice()).expect(200)).body as NodeBody).state === 'running',
      60_000,
    );
    const revision = ((await nodes.service.db('nodes').where({ id: named.id }).first('revision')) as { revision: number }).revision;
    platform.clock.advance(1000);
    const renamed = (await patch(named.id, { name: 'ledger sync' }).expect(200)).body as NodeBody;
    expect(renamed).toEqual({ ...before, name: 'ledger sync', updatedAt: expect.any(String), sync: expect.any(Object) });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(before!.updatedAt));
    // Not a change of the node's route: the proxy's revision stays.
    expect(((await nodes.service.db('nodes').where({ id: named.id }).first('revision')) as { revision: number }).revision).toBe(revision);
    expect((await list())[0]?.name).toBe('ledger sync');

    expect(((await patch(named.id, { name: null }).expect(200)).body as NodeBody).name).toBeNull();
    expect(await rowName(named.id)).toBeNull();
    expect(((await patch(named.id, { name: 'ledger sync' }).expect(200)).body as NodeBody).name).toBe('ledger sync');
  });

  it('renames and resizes in one PATCH', async () => {
    const both = (await patch(named.id, { name: 'big one', large: true }).expect(200)).body as NodeBody;
    expect(both).toMatchObject({ name: 'big one', large: true });
    await patch(named.id, { name: 'ledger sync' }).expect(200);
  });

  describe('bad names', () => {
    it.each([
      ['an empty name', ''],
      ['only spaces', '   '],
      ['65 characters', 'a'.repeat(65)],
      ['65 characters, some outside the BMP', 'é🚀'.repeat(32) + 'x'],
      ['a line break', 'two\nlines'],
      ['a tab', 'a\tb'],
      ['a bidirectional override', 'abc\u202Edef'],
      ['a zero-width space', 'a\u200Bb'],
      ['a number', 42],
      ['an object', { text: 'x' }],
    ])('answers %s 400 InvalidInput naming body.name, at creation and in a rename, and changes nothing', async (_what, name) => {
      const created = await create({ image: 'btc', name });
      expect([created.status, created.body]).toEqual([400, { code: 'InvalidInput', message: expect.stringMatching(/^body\.name: /) }]);
      const renamed = await patch(named.id, { name });
      expect([renamed.status, renamed.body]).toEqual([400, { code: 'InvalidInput', message: expect.stringMatching(/^body\.name: /) }]);
      expect((await list()).map((node) => node.name)).toEqual(['ledger sync', null]);
    });

    it('answers a PATCH with neither name nor large 400', async () => {
      const response = await patch(named.id, {});
      expect([response.status, response.body]).toEqual([400, { code: 'InvalidInput', message: expect.stringContaining('give large, name or both') }]);
      const unknown = await patch(named.id, { name: 'x', label: 'y' });
      expect([unknown.status, unknown.body]).toEqual([400, { code: 'InvalidInput', message: expect.stringContaining('label') }]);
    });
  });

  it("answers 404 to a rename of another user's node (or of none), and leaves it alone", async () => {
    for (const id of [named.id, 'node-00000000-0000-4000-8000-000000000000']) {
      const response = await patch(id, { name: 'mine now' }, bob.clientToken);
      expect([response.status, response.body]).toEqual([404, { code: 'NotFound', message: `no node ${id}` }]);
    }
    expect(await rowName(named.id)).toBe('ledger sync');
  });

  it("renames a validator's node (a label), though it refuses to resize it", async () => {
    const validatorId = 'node-22222222-2222-4222-8222-222222222222';
    await platform.bus.publish([
      message('validator.created', {
        nodeId: validatorId,
        userId: alice.id,
        image: 'avalanchefuji',
        basic: { user: 'uvalidator03', passwordSha256: sha256('x') },
      }),
    ]);
    await waitUntil('the validator node exists', async () => (await nodes.service.db('nodes').where({ id: validatorId }).first('id')) !== undefined, 10_000);
    expect(((await nodes.http.get(`/users/me/nodes/${validatorId}`).set(asAlice()).expect(200)).body as NodeBody).name).toBeNull();
    expect(((await patch(validatorId, { name: 'fuji validator' }).expect(200)).body as NodeBody).name).toBe('fuji validator');
    const resized = await patch(validatorId, { name: 'other', large: true });
    expect(resized.status).toBe(409);
    expect(await rowName(validatorId)).toBe('fuji validator');
  });

  it('refuses to rename a node being deleted with 409', async () => {
    await nodes.http.delete(`/users/me/nodes/${named.id}`).set(asAlice()).expect(200);
    const response = await patch(named.id, { name: 'too late' });
    expect([response.status, response.body]).toEqual([409, { code: 'Conflict', message: `node ${named.id} is deleting` }]);
  });

  it('keeps names out of the metrics (user data is no label)', async () => {
    const metrics = (await nodes.http.get('/metrics').expect(200)).text;
    expect(metrics).toContain('api_dependency_up');
    for (const name of ['ledger sync', 'fuji validator', 'payments-eth', 'mine now']) expect(metrics).not.toContain(name);
  });
});
