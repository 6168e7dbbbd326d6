import type { Migration } from '@cloud/db';

export const createClientKeys: Migration = {
  name: '20261122000200_create_client_keys',
  async up(db) {
    await db.schema.createTable('client_keys', (t) => {
      t.string('id', 40).primary(); // the clientId
      t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.string('secret_hash', 64).notNullable(); // HMAC-SHA256 of the secret, hex
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['user_id', 'created_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('client_keys');
  },
};
