import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { nodesMigrations, NODES_SCHEMA } from '../src/migrations';

const tables = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { table_name: string }[] }>(
      "select table_name from information_schema.tables where table_schema = 'nodes' and table_name not like 'knex_%' order by table_name",
    )
  ).rows.map((row) => row.table_name);

describe('nodes migrations', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(NODES_SCHEMA);
  });
  afterAll(() => test.destroy());

  it('go up with rows in them, come down cleanly, and go up again', async () => {
    await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations);
    expect(await tables(test)).toEqual(['nodes', 'outbox']);

    const now = new Date();
    await test.db('nodes').insert({ id: 'node-1', user_id: 'user-1', image: 'eth', large: false, jwt: true, software: 'anvil-1.7.1', state: 'provisioning', created_at: now, updated_at: now });
    expect(await test.db('nodes').first('revision', 'owner', 'node_password_hash')).toEqual({ revision: 0, owner: null, node_password_hash: null });

    const reverted = await migrateDownAll(test.db, NODES_SCHEMA, nodesMigrations);
    expect(reverted).toEqual(nodesMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);
    expect(await migrateToLatest(test.db, NODES_SCHEMA, nodesMigrations)).toHaveLength(nodesMigrations.length);
  });
});
