import type { Migration } from '@cloud/db';

export const createRevocations: Migration = {
  name: '20261122000500_create_revocations',
  async up(db) {
    // Every revocation for as long as a token it kills could still be alive: other services
    // rebuild their revocation sets from it when they start.
    await db.schema.createTable('revocations', (t) => {
      t.bigIncrements('seq').primary();
      t.string('kind', 64).notNullable();
      t.string('user_id', 64).notNullable();
      t.string('client_id', 40);
      t.integer('credentials_version');
      t.timestamp('created_at', { useTz: true }).notNullable().index();
    });
  },
  async down(db) {
    await db.schema.dropTable('revocations');
  },
};
