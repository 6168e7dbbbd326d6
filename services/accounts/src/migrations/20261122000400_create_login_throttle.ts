import type { Migration } from '@cloud/db';

/** Failed-login counts shared by replicas (rate-limiter-flexible's PostgreSQL layout). */
export const createLoginThrottle: Migration = {
  name: '20261122000400_create_login_throttle',
  async up(db) {
    await db.schema.createTable('login_throttle', (t) => {
      t.string('key', 255).primary();
      t.integer('points').notNullable().defaultTo(0);
      t.bigInteger('expire').nullable(); // ms since the epoch
    });
  },
  async down(db) {
    await db.schema.dropTable('login_throttle');
  },
};
