import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { nodesMigrations, NODES_SCHEMA } from '../src/migrations';
import { addNodesUpstreamUrl } from '../src/migrations/20261123100100_add_nodes_upstream_url';

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
    // A node from before upstream URLs, which the latest migration must keep.
    await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations.slice(0, -1));
    const now = new Date();
    await test.db('nodes').insert({ id: 'node-1', user_id: 'user-1', image: 'eth', large: false, jwt: true, software: 'anvil-1.7.1', state: 'provisioning', created_at: now, updated_at: now });

    expect(await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations)).toEqual([addNodesUpstreamUrl.name]);
    expect(await tables(test)).toEqual(['nodes', 'outbox']);
    expect(await test.db('nodes').first('revision', 'owner', 'node_password_hash', 'upstream_url')).toEqual({ revision: 0, owner: null, node_password_hash: null, upstream_url: null });
    await test.db('nodes').where({ id: 'node-1' }).update({ upstream_url: 'http://127.0.0.1:40001' });

    // The upstream URL's own down step drops the column and keeps the node.
    await addNodesUpstreamUrl.down(test.db);
    expect(await nodeColumns(test)).not.toContain('upstream_url');
    expect(await test.db('nodes').first('id')).toEqual({ id: 'node-1' });
    await addNodesUpstreamUrl.up(test.db);
    expect(await nodeColumns(test)).toContain('upstream_url');

    const reverted = await migrateDownAll(test.db, NODES_SCHEMA, nodesMigrations);
    expect(reverted).toEqual(nodesMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);
    expect(await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations)).toHaveLength(nodesMigrations.length);
  });
});
