import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { nodesMigrations, NODES_SCHEMA } from '../src/migrations';
import { addNodesUpstreamUrl } from '../src/migrations/20261123100100_add_nodes_upstream_url';
import { addNodesStartAfterStop } from '../src/migrations/20261125100100_add_nodes_start_after_stop';
import { addNodesDevAndTxindex } from '../src/migrations/20261125100200_add_nodes_dev_and_txindex';
import { addNodesSync } from '../src/migrations/20261125100300_add_nodes_sync';
import { addNodeCredentialsAndAccess } from '../src/migrations/20261125140100_add_node_credentials_and_access';
import { createUsage } from '../src/migrations/20261125150100_create_usage';
import { createUsageCredentials } from '../src/migrations/20261125160100_create_usage_credentials';
import { addNodesLeaseGeneration } from '../src/migrations/20261125170100_add_nodes_lease_generation';
import { addNodesName } from '../src/migrations/20261127100100_add_nodes_name';
import { createPools } from '../src/migrations/20261128100100_create_pools';
import { addUsageCachedAndMembers } from '../src/migrations/20261128120100_add_usage_cached_and_members';

const tables = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { table_name: string }[] }>(
      "select table_name from information_schema.tables where table_schema = 'nodes' and table_name not like 'knex_%' order by table_name",
    )
  ).rows.map((row) => row.table_name);

const nodeColumns = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { column_name: string }[] }>(
      "select column_name from information_schema.columns where table_schema = 'nodes' and table_name = 'nodes' order by column_name",
    )
  ).rows.map((row) => row.column_name);

describe('nodes migrations', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(NODES_SCHEMA);
  });
  afterAll(() => test.destroy());

  it('go up with rows in them, come down cleanly, and go up again', async () => {
    // Nodes from before the stop/start, dev and sync columns, which the latest migrations must keep.
    await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations.slice(0, nodesMigrations.indexOf(addNodesUpstreamUrl) + 1));
    const now = new Date();
    const node = { user_id: 'user-1', large: false, jwt: true, state: 'provisioning', created_at: now, updated_at: now };
    await test.db('nodes').insert({ ...node, id: 'node-1', image: 'eth', software: 'anvil-1.7.1' });
    await test
      .db('nodes')
      .insert({ ...node, id: 'node-2', image: 'ltc', software: 'litecoin-core-0.21.4', upstream_url: 'http://node-2.cloud-nodes.svc:9332' });
    await test.db('nodes').insert({ ...node, id: 'node-3', image: 'ltc', software: 'litecoin-core-0.21.4', upstream_url: 'http://127.0.0.1:40001' });
    // A Basic node: its one credential becomes the first of its list, named default.
    const hash = 'a'.repeat(64);
    await test.db('nodes').insert({
      id: 'node-4',
      user_id: 'user-1',
      image: 'btc',
      large: false,
      jwt: false,
      software: 'x',
      state: 'running',
      node_user: 'u0123',
      node_password_hash: hash,
      created_at: now,
      updated_at: now,
    });

    expect(await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations)).toEqual([
      addNodesStartAfterStop.name,
      addNodesDevAndTxindex.name,
      addNodesSync.name,
      addNodeCredentialsAndAccess.name,
      createUsage.name,
      createUsageCredentials.name,
      addNodesLeaseGeneration.name,
      addNodesName.name,
      createPools.name,
      addUsageCachedAndMembers.name,
    ]);
    expect(await tables(test)).toEqual([
      'nodes',
      'outbox',
      'pool_members',
      'pools',
      'usage_calls',
      'usage_credential_calls',
      'usage_member_calls',
      'usage_messages',
      'usage_traffic',
    ]);
    // Nodes of the local driver ran on dev chains until now; those of the cluster did not.
    expect(await test.db('nodes').select('id', 'dev', 'txindex', 'sync_progress', 'start_after_stop').orderBy('id')).toEqual([
      { id: 'node-1', dev: true, txindex: false, sync_progress: null, start_after_stop: false },
      { id: 'node-2', dev: false, txindex: false, sync_progress: null, start_after_stop: false },
      { id: 'node-3', dev: true, txindex: false, sync_progress: null, start_after_stop: false },
      { id: 'node-4', dev: false, txindex: false, sync_progress: null, start_after_stop: false },
    ]);
    expect(await test.db('nodes').orderBy('id').select('id', 'credentials', 'access')).toEqual([
      { id: 'node-1', credentials: [], access: null },
      { id: 'node-2', credentials: [], access: null },
      { id: 'node-3', credentials: [], access: null },
      {
        id: 'node-4',
        credentials: [
          { id: expect.stringMatching(/^cred-[0-9a-f-]{36}$/), name: 'default', user: 'u0123', passwordSha256: hash, createdAt: now.toISOString() },
        ],
        access: null,
      },
    ]);
    expect(await nodeColumns(test)).not.toContain('node_user');

    // Down keeps the first credential in the old columns; up again brings the list back.
    await addNodeCredentialsAndAccess.down(test.db);
    expect(await test.db('nodes').where({ id: 'node-4' }).first('node_user', 'node_password_hash')).toEqual({ node_user: 'u0123', node_password_hash: hash });
    expect(await nodeColumns(test)).not.toContain('credentials');
    await addNodeCredentialsAndAccess.up(test.db);
    expect(await test.db('nodes').where({ id: 'node-4' }).first('credentials')).toEqual({
      credentials: [expect.objectContaining({ name: 'default', user: 'u0123' })],
    });
    await test.db('nodes').where({ id: 'node-4' }).delete();
    expect(await test.db('nodes').where({ id: 'node-1' }).first('revision', 'owner', 'upstream_url')).toEqual({ revision: 0, owner: null, upstream_url: null });
    await test.db('nodes').where({ id: 'node-1' }).update({ sync_height: 12, sync_progress: 0.5, sync_checked_at: now });

    // Each down step drops its columns and keeps the nodes.
    await addNodesSync.down(test.db);
    await addNodesDevAndTxindex.down(test.db);
    await addNodesStartAfterStop.down(test.db);
    await addNodesUpstreamUrl.down(test.db);
    expect((await nodeColumns(test)).filter((column) => /^(sync_|dev$|txindex$|upstream_url$|start_after_stop$)/.test(column))).toEqual([]);
    expect(await test.db('nodes').select('id').orderBy('id')).toEqual([{ id: 'node-1' }, { id: 'node-2' }, { id: 'node-3' }]);
    await addNodesUpstreamUrl.up(test.db);
    await addNodesStartAfterStop.up(test.db);
    await addNodesDevAndTxindex.up(test.db);
    await addNodesSync.up(test.db);
    expect(await nodeColumns(test)).toEqual(
      expect.arrayContaining([
        'upstream_url',
        'start_after_stop',
        'dev',
        'txindex',
        'sync_height',
        'sync_best_known_height',
        'sync_progress',
        'sync_peers',
        'sync_syncing',
        'sync_checked_at',
      ]),
    );

    // Buckets from before the cache have no cached calls; the pool members' table and the column go with their down step.
    const bucket = { granularity: 'minute', bucket_start: now, user_id: 'user-1' };
    await addUsageCachedAndMembers.down(test.db);
    await test.db('usage_traffic').insert({ ...bucket, node_id: 'node-1', requests: 3, bytes_in: 1, bytes_out: 2 });
    await addUsageCachedAndMembers.up(test.db);
    expect(Number((await test.db('usage_traffic').where({ node_id: 'node-1' }).first('cached_calls'))!.cached_calls)).toBe(0);
    await test.db('usage_member_calls').insert({ ...bucket, node_id: 'pool-1', member_id: 'node-1', calls: 2 });
    await addUsageCachedAndMembers.down(test.db);
    expect(await tables(test)).not.toContain('usage_member_calls');
    expect(await test.db('usage_traffic').where({ node_id: 'node-1' }).first()).not.toHaveProperty('cached_calls');
    await test.db('usage_traffic').delete();

    // The usage tables' own down steps drop them, leaving the nodes.
    await test.db('usage_messages').insert({ id: 'msg-1', received_at: now });
    await createUsageCredentials.down(test.db);
    await createUsage.down(test.db);
    expect(await tables(test)).toEqual(['nodes', 'outbox', 'pool_members', 'pools']);
    await createUsage.up(test.db);
    await createUsageCredentials.up(test.db);
    expect(await test.db('usage_messages').select('id')).toEqual([]);

    // The lease generation starts at 0 for the nodes there are, and goes with its down step.
    expect(await test.db('nodes').select('id', 'lease_generation').orderBy('id')).toEqual(
      ['node-1', 'node-2', 'node-3'].map((id) => ({ id, lease_generation: 0 })),
    );
    await addNodesLeaseGeneration.down(test.db);
    expect(await nodeColumns(test)).not.toContain('lease_generation');
    await addNodesLeaseGeneration.up(test.db);

    // Nodes from before names have none; a name holds 64 characters (not bytes or UTF-16 units),
    // on PostgreSQL as on PGlite, and the column goes with its down step.
    expect(await test.db('nodes').select('id', 'name').orderBy('id')).toEqual(['node-1', 'node-2', 'node-3'].map((id) => ({ id, name: null })));
    const longest = 'é🚀'.repeat(32);
    await test.db('nodes').where({ id: 'node-1' }).update({ name: longest });
    expect(await test.db('nodes').where({ id: 'node-1' }).first('name')).toEqual({ name: longest });
    await expect(
      test
        .db('nodes')
        .where({ id: 'node-2' })
        .update({ name: `${longest}x` }),
    ).rejects.toThrow(/too long/);
    await addNodesName.down(test.db);
    expect(await nodeColumns(test)).not.toContain('name');
    await addNodesName.up(test.db);
    expect(await test.db('nodes').where({ id: 'node-1' }).first('name')).toEqual({ name: null });

    // A pool's row takes its credentials and access rules as a node's do (jsonb); its members go
    // with it, and the pool tables with their down step, leaving the nodes.
    await test
      .db('pools')
      .insert({ id: 'pool-1', user_id: 'user-1', name: 'p', image: 'eth', chain: 'eth', dev: true, max_lag_blocks: 5, created_at: now, updated_at: now });
    await test.db('pool_members').insert([
      { pool_id: 'pool-1', node_id: 'node-1', position: 0 },
      { pool_id: 'pool-1', node_id: 'node-3', position: 1 },
    ]);
    expect(await test.db('pools').first('credentials', 'access', 'revision', 'deleted')).toEqual({
      credentials: [],
      access: null,
      revision: 0,
      deleted: false,
    });
    await expect(test.db('pool_members').insert({ pool_id: 'pool-1', node_id: 'node-1', position: 2 })).rejects.toThrow(/duplicate key/);
    await test.db('pools').where({ id: 'pool-1' }).delete();
    expect(await test.db('pool_members').select('node_id')).toEqual([]);
    await createPools.down(test.db);
    expect(await tables(test)).not.toContain('pools');
    await createPools.up(test.db);
    expect(await test.db('nodes').select('id').orderBy('id')).toEqual([{ id: 'node-1' }, { id: 'node-2' }, { id: 'node-3' }]);
    await addUsageCachedAndMembers.up(test.db);

    const reverted = await migrateDownAll(test.db, NODES_SCHEMA, nodesMigrations);
    expect(reverted).toEqual(nodesMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);
    expect(await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations)).toHaveLength(nodesMigrations.length);
  });
});
