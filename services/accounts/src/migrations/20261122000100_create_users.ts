import type { Migration } from '@cloud/db';

export const createUsers: Migration = {
  name: '20261122000100_create_users',
  async up(db) {
    await db.schema.createTable('users', (t) => {
      t.string('id', 64).primary();
      t.string('email', 254).notNullable().unique();
      t.string('password_hash', 100).notNullable();
      t.string('display_name', 100).notNullable();
      t.string('entity_type', 32).notNullable().defaultTo('individual');
      t.jsonb('billing_address').notNullable();
      t.timestamp('verified_at', { useTz: true }).nullable();
      t.string('verification_token_hash', 64).nullable();
      t.timestamp('verification_expires_at', { useTz: true }).nullable();
      t.timestamp('verification_sent_at', { useTz: true }).nullable();
      // Raised by a password change: tokens carrying an older version are revoked.
      t.integer('credentials_version').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('users');
  },
};
