import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { accountsMigrations, ACCOUNTS_SCHEMA } from '../src/migrations';
import { addTwoFactor } from '../src/migrations/20261125000100_add_two_factor';

const userColumns = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { column_name: string }[] }>(
      "select column_name from information_schema.columns where table_schema = 'accounts' and table_name = 'users' and column_name like 'two_factor%' order by column_name",
    )
  ).rows.map((row) => row.column_name);

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
    expect(await tables(test)).toEqual(['client_keys', 'events', 'login_throttle', 'outbox', 'password_resets', 'recovery_codes', 'revocations', 'users']);
    expect(await userColumns(test)).toEqual(['two_factor_enabled_at', 'two_factor_last_step', 'two_factor_secret']);

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
    await test
      .db('events')
      .insert({ id: 'event-1', user_id: 'user-1', service: 'cloud-accounts', input: '{}', output: '{}', service_data: '{}', created_at: now });
    await test.db('recovery_codes').insert({ user_id: 'user-1', code_hash: 'e'.repeat(64) });
    expect(await test.db('users').first('entity_type', 'credentials_version', 'two_factor_enabled_at')).toEqual({
      entity_type: 'individual',
      credentials_version: 0,
      two_factor_enabled_at: null,
    });

    await test.db('password_resets').insert({ token_hash: 'e'.repeat(64), user_id: 'user-1', credentials_version: 0, expires_at: now, created_at: now });

    // Deleting a user takes their client keys, recovery codes and reset tokens with them.
    await test.db('users').where({ id: 'user-1' }).delete();
    expect(await test.db('client_keys').select()).toEqual([]);
    expect(await test.db('recovery_codes').select()).toEqual([]);
    expect(await test.db('password_resets').select()).toEqual([]);

    // The two-factor migration alone comes down to the schema before it, and goes up again.
    await addTwoFactor.down(test.db);
    expect(await userColumns(test)).toEqual([]);
    expect(await tables(test)).toEqual(['client_keys', 'events', 'login_throttle', 'outbox', 'password_resets', 'revocations', 'users']);
    await addTwoFactor.up(test.db);
    expect(await userColumns(test)).toHaveLength(3);

    const reverted = await migrateDownAll(test.db, ACCOUNTS_SCHEMA, accountsMigrations);
    expect(reverted).toEqual(accountsMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);

    expect(await migrateToLatest(test.db, ACCOUNTS_SCHEMA, accountsMigrations)).toHaveLength(accountsMigrations.length);
  });
});
