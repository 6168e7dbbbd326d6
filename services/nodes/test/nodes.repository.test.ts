import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { NodesRepository } from '../src/data-access/nodes.repository';
import type { NodeRecord } from '../src/data-access/node-record';
import { nodesMigrations, NODES_SCHEMA } from '../src/migrations';

// Leases decide which nodes-service instance drives a node; these are the rules they keep.
describe('NodesRepository leases and transitions', () => {
  let database: TestDatabase;
  let nodes: NodesRepository;
  let sequence = 0;

  beforeEach(async () => {
    database = await createTestDatabase(NODES_SCHEMA);
    await migrateToLatest(database.db, NODES_SCHEMA, nodesMigrations);
    nodes = new NodesRepository(database.db);
  });
  afterEach(() => database.destroy());

  const insertNode = async (state: NodeRecord['state'] = 'provisioning'): Promise<string> => {
    sequence += 1;
    const id = `node-${String(sequence).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const now = new Date(Date.UTC(2026, 10, 22, 0, 0, sequence));
    await nodes.insert(database.db, {
      id,
      name: null,
      userId: 'user-1',
      image: 'btc',
      large: false,
      jwt: false,
      dev: true,
      txindex: false,
      software: 'cloud-dev-chain-0.1.0',
      state,
      stateReason: null,
      startAfterStop: false,
      credentials: [{ kind: 'basic', id: `cred-${id}`, name: 'default', user: `u-${id}`, passwordSha256: '0'.repeat(64), createdAt: now.toISOString() }],
      access: null,
      upstreamUrl: null,
      revision: 0,
      sync: null,
      createdAt: now,
      updatedAt: now,
    });
    return id;
  };
  const ids = (records: NodeRecord[]) => records.map((node) => node.id).sort();

  it("names the user's node, not another user's nor one being deleted, without a new revision", async () => {
    const running = await insertNode('running');
    const deleting = await insertNode('deleting');
    const at = new Date(Date.UTC(2026, 10, 23));
    expect(await nodes.setName(database.db, 'user-1', running, 'ledger sync 🚀', at)).toMatchObject({
      id: running,
      name: 'ledger sync 🚀',
      revision: 0,
      updatedAt: at,
    });
    expect((await nodes.findVisible('user-1', running))?.name).toBe('ledger sync 🚀');
    expect(await nodes.setName(database.db, 'user-2', running, 'theirs', at)).toBeUndefined();
    expect(await nodes.setName(database.db, 'user-1', deleting, 'late', at)).toBeUndefined();
    expect(await nodes.setName(database.db, 'user-1', running, null, at)).toMatchObject({ name: null });
  });

  it('claims only nodes that need driving and have no live owner', async () => {
    const provisioning = await insertNode('provisioning');
    const deleting = await insertNode('deleting');
    await insertNode('failed');
    await insertNode('deleted');

    expect(ids(await nodes.claimUnowned('a', 30, 10))).toEqual([provisioning, deleting].sort());
    expect(await nodes.claimUnowned('b', 30, 10)).toEqual([]);
    expect(ids(await nodes.renewLeases('a', 30))).toEqual([provisioning, deleting].sort());
    expect(await nodes.renewLeases('b', 30)).toEqual([]);
  });

  it("lets another instance take a node once its owner's lease has run out, and the old owner then renews nothing", async () => {
    const id = await insertNode();
    await nodes.claimUnowned('a', 30, 10);
    await database
      .db('nodes')
      .where({ id })
      .update({ lease_expires_at: database.db.raw("now() - interval '1 second'") });

    expect(ids(await nodes.claimUnowned('b', 30, 10))).toEqual([id]);
    expect(await nodes.renewLeases('a', 30)).toEqual([]);
    expect((await nodes.owners()).get(id)).toBe('b');
  });

  it("raises the lease generation with every claim, and fences an owner's writes by the lease it holds", async () => {
    const id = await insertNode();
    const [first] = await nodes.claimUnowned('a', 30, 10);
    // An expired lease nobody claimed is still a's: renewing it keeps the generation.
    await database
      .db('nodes')
      .where({ id })
      .update({ lease_expires_at: database.db.raw("now() - interval '1 second'") });
    const [renewed] = await nodes.renewLeases('a', 30);
    expect(renewed!.lease).toEqual(first!.lease);

    await database
      .db('nodes')
      .where({ id })
      .update({ lease_expires_at: database.db.raw("now() - interval '1 second'") });
    const [taken] = await nodes.claimUnowned('b', 30, 10);
    expect(taken!.lease).toEqual({ owner: 'b', generation: first!.lease.generation + 1 });
    const at = new Date();
    // a does not know yet: its moves apply to nothing.
    expect(
      await nodes.transition(database.db, id, { from: ['provisioning'], to: 'running', upstreamUrl: 'http://10.0.0.1:1', lease: first!.lease, at }),
    ).toBeUndefined();
    expect(
      await nodes.transition(database.db, id, { from: ['provisioning'], to: 'running', upstreamUrl: 'http://10.0.0.2:2', lease: taken!.lease, at }),
    ).toMatchObject({ state: 'running', upstreamUrl: 'http://10.0.0.2:2' });
    expect(await nodes.setUpstream(database.db, id, 'http://10.0.0.1:1', at, first!.lease)).toBeUndefined();
    expect(await nodes.setUpstream(database.db, id, 'http://10.0.0.2:3', at, taken!.lease)).toMatchObject({ upstreamUrl: 'http://10.0.0.2:3' });
  });

  it('never gives one node to two instances claiming at once', async () => {
    const all = await Promise.all([1, 2, 3, 4, 5, 6].map(() => insertNode()));
    const [a, b] = await Promise.all([nodes.claimUnowned('a', 30, 10), nodes.claimUnowned('b', 30, 10)]);
    expect([...ids(a!), ...ids(b!)].sort()).toEqual(all.sort());
    expect(ids(a!).filter((id) => ids(b!).includes(id))).toEqual([]);
  });

  it('releases the leases of a stopping instance, so another claims at once', async () => {
    const id = await insertNode();
    await nodes.claimUnowned('a', 30, 10);
    await nodes.releaseLeases('a');
    expect(ids(await nodes.claimUnowned('b', 30, 10))).toEqual([id]);
  });

  it('applies a transition only from the states it names, raising the revision and clearing the owner once settled', async () => {
    const id = await insertNode('provisioning');
    await nodes.claimUnowned('a', 30, 10);
    const at = new Date();
    expect(await nodes.transition(database.db, id, { from: ['deleting'], to: 'deleted', at })).toBeUndefined();

    const running = await nodes.transition(database.db, id, { from: ['provisioning'], to: 'running', at });
    expect(running).toMatchObject({ state: 'running', revision: 1 });
    expect((await nodes.owners()).get(id)).toBe('a');

    const failed = await nodes.transition(database.db, id, { from: ['provisioning', 'running'], to: 'failed', reason: 'exited with code 1', at });
    expect(failed).toMatchObject({ state: 'failed', stateReason: 'exited with code 1', revision: 2 });
    expect((await nodes.owners()).get(id)).toBeNull();
    expect(await nodes.countLive(database.db, 'user-1')).toBe(1);
  });

  it('keeps an upstream only while the node runs, and raises the revision when it moves', async () => {
    const id = await insertNode('provisioning');
    const at = new Date();
    expect(await nodes.setUpstream(database.db, id, 'http://127.0.0.1:40001', at)).toBeUndefined();

    const running = await nodes.transition(database.db, id, { from: ['provisioning'], to: 'running', upstreamUrl: 'http://127.0.0.1:40001', at });
    expect(running).toMatchObject({ state: 'running', upstreamUrl: 'http://127.0.0.1:40001', revision: 1 });
    const moved = await nodes.setUpstream(database.db, id, 'http://10.0.0.7:40002', at);
    expect(moved).toMatchObject({ state: 'running', upstreamUrl: 'http://10.0.0.7:40002', revision: 2 });
    expect(await database.db('nodes').where({ id }).first('upstream_url')).toEqual({ upstream_url: 'http://10.0.0.7:40002' });

    const deleting = await nodes.transition(database.db, id, { from: ['running'], to: 'deleting', at });
    expect(deleting).toMatchObject({ state: 'deleting', upstreamUrl: null, revision: 3 });
    expect(await nodes.setUpstream(database.db, id, 'http://10.0.0.8:40003', at)).toBeUndefined();
    expect(await nodes.findUndeleted(id)).toMatchObject({ upstreamUrl: null, revision: 3 });
  });

  it('clears the upstream of every node of a deleted user', async () => {
    const id = await insertNode('provisioning');
    await nodes.transition(database.db, id, { from: ['provisioning'], to: 'running', upstreamUrl: 'http://127.0.0.1:40001', at: new Date() });
    expect(await nodes.markAllDeleting(database.db, 'user-1', new Date())).toEqual([expect.objectContaining({ id, state: 'deleting', upstreamUrl: null })]);
  });

  it('lists the nodes not deleted, of every user, a page at a time in id order', async () => {
    const live = [await insertNode('provisioning'), await insertNode('running'), await insertNode('failed'), await insertNode('deleting')];
    await insertNode('deleted');
    await database.db('nodes').where({ id: live[1] }).update({ user_id: 'user-2' });

    expect(ids(await nodes.listRoutable(undefined, 10))).toEqual(live);
    const first = await nodes.listRoutable(undefined, 3);
    expect(first.map((node) => node.id)).toEqual(live.slice(0, 3));
    expect((await nodes.listRoutable(live[2], 3)).map((node) => node.id)).toEqual([live[3]]);
    expect(await nodes.listRoutable(live[3], 3)).toEqual([]);
    expect(first[1]).toMatchObject({ userId: 'user-2', state: 'running' });
  });

  it("reads a credential stored before URL tokens (no kind) as Basic, and keeps a token's hash", async () => {
    const id = await insertNode('running');
    const old = { id: 'cred-old', name: 'default', user: 'u-old', passwordSha256: 'a'.repeat(64), createdAt: '2026-11-01T00:00:00.000Z' };
    const token = { kind: 'token', id: 'cred-token', name: 'dapp', tokenSha256: 'b'.repeat(64), createdAt: '2026-11-02T00:00:00.000Z' };
    await database
      .db('nodes')
      .where({ id })
      .update({ credentials: JSON.stringify([old, token]) });
    expect((await nodes.findVisible('user-1', id))?.credentials).toEqual([{ ...old, kind: 'basic' }, token]);
  });
});
