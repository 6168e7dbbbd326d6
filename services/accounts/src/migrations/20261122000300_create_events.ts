import type { Migration } from '@cloud/db';

export const createEvents: Migration = {
  name: '20261122000300_create_events',
  async up(db) {
    await db.schema.createTable('events', (t) => {
      // Insertion order: newest-first listing and the `before` cursor walk this, not timestamps,
      // which can tie.
      t.bigIncrements('seq').primary();
      t.string('id', 64).notNullable().unique();
      t.string('user_id', 64).notNullable();
      t.string('service', 64).notNullable();
      t.jsonb('input').notNullable();
      t.jsonb('output').notNullable();
      t.jsonb('service_data').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['user_id', 'seq']);
    });
  },
  async down(db) {
    await db.schema.dropTable('events');
  },
};
