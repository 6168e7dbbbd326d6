import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { accountsMigrations, ACCOUNTS_SCHEMA } from '../src/migrations';

const tables = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { table_name: string }[] }>(
      "select table_name from information_schema.tables where table_schema = 'accounts' and table_name not like 'knex_%' order by table_name",
    )
  ).rows.map((row) => row.table_name);

describe('accounts migrations', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(ACCOUNTS_SCHEMA);
  });
  afterAll(() => test.destroy());

  it('go up with rows in them, come down cleanly, and go up again', async () => {
    await migrateToLatest(test.db, ACCOUNTS_SCHEMA, accountsMigrations);
    expect(await tables(test)).toEqual(['client_keys', 'events', 'login_throttle', 'outbox', 'revocations', 'users']);

    const now = new Date();
    await test.db('users').insert({
      id: 'user-1',
      email: 'a@example.com',
      password_hash: '$2b$04$x',
      display_name: 'A',
      billing_address: JSON.stringify({ country: 'NL' }),
      created_at: now,
      updated_at: now,
    });
    await test.db('client_keys').insert({ id: 'k'.repeat(40), user_id: 'user-1', secret_hash: 'f'.repeat(64), created_at: now });
    await test.db('events').insert({ id: 'event-1', user_id: 'user-1', service: 'cloud-accounts', input: '{}', output: '{}', service_data: '{}', created_at: now });
    expect(await test.db('users').first('entity_type', 'credentials_version')).toEqual({ entity_type: 'individual', credentials_version: 0 });

    // Deleting a user takes their client keys with them.
    await test.db('users').where({ id: 'user-1' }).delete();
    expect(await test.db('client_keys').select()).toEqual([]);

    const reverted = await migrateDownAll(test.db, ACCOUNTS_SCHEMA, accountsMigrations);
    expect(reverted).toEqual(accountsMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);

    expect(await migrateToLatest(test.db, ACCOUNTS_SCHEMA, accountsMigrations)).toHaveLength(accountsMigrations.length);
  });
});
