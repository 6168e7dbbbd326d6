import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { stakingMigrations, STAKING_SCHEMA } from '../src/migrations';

const tables = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { table_name: string }[] }>(
      "select table_name from information_schema.tables where table_schema = 'staking' and table_name not like 'knex_%' order by table_name",
    )
  ).rows.map((row) => row.table_name);

describe('staking migrations', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(STAKING_SCHEMA);
  });
  afterAll(() => test.destroy());

  it('go up with rows in them, come down cleanly, and go up again', async () => {
    expect(await migrateToLatest(test.db, STAKING_SCHEMA, stakingMigrations)).toEqual(stakingMigrations.map((m) => m.name));
    expect(await tables(test)).toEqual(['outbox', 'validators']);
    const now = new Date();
    await test.db('validators').insert({
      id: 'node-1',
      user_id: 'user-1',
      chain: 'avalanche',
      network: 'fuji',
      image: 'avalanchefuji',
      chain_node_id: 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
      certificate_pem: '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n',
      key_ciphertext: Buffer.from([1, 2, 3]),
      key_iv: Buffer.alloc(12),
      key_auth_tag: Buffer.alloc(16),
      key_encryption_key_id: 'k1-0123456789abcdef',
      node_user: 'u0123456789abcdef',
      node_password_hash: '0'.repeat(64),
      created_at: now,
      updated_at: now,
    });
    expect(await test.db('validators').first('node_state', 'node_revision', 'upstream_url', 'registration_tx_id', 'deleted_at')).toEqual({
      node_state: 'provisioning',
      node_revision: -1,
      upstream_url: null,
      registration_tx_id: null,
      deleted_at: null,
    });
    expect(Buffer.from((await test.db('validators').first('key_ciphertext')).key_ciphertext as Uint8Array)).toEqual(Buffer.from([1, 2, 3]));
    // One NodeID, one validator.
    await expect(test.db('validators').insert({ ...(await test.db('validators').first()), id: 'node-2' })).rejects.toThrow(/unique|duplicate/i);

    const reverted = await migrateDownAll(test.db, STAKING_SCHEMA, stakingMigrations);
    expect(reverted).toEqual(stakingMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);
    expect(await migrateToLatest(test.db, STAKING_SCHEMA, stakingMigrations)).toHaveLength(stakingMigrations.length);
  });
});
