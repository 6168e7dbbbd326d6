import type { Migration } from '@cloud/db';

export const createPasswordResets: Migration = {
  name: '20261125100000_create_password_resets',
  async up(db) {
    // Outstanding password-reset tokens, by SHA-256 only. A token works while its user's
    // credentials version is the one it was issued at, so any password change ends it too.
    await db.schema.createTable('password_resets', (t) => {
      t.string('token_hash', 64).primary();
      t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('CASCADE').index();
      t.integer('credentials_version').notNullable();
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('password_resets');
  },
};
