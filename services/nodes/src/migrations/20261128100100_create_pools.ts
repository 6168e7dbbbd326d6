import type { Migration } from '@cloud/db';

/**
 * Pools (issue 31): one endpoint over several of a user's nodes of one image and dev flag. A pool
 * keeps its own credentials and access rules on its row, in the shape a node keeps them, so the
 * same code changes and announces both (`domain/credentialed-endpoints.ts`); its members are rows
 * of `pool_members`, in the order the owner gave them.
 */
export const createPools: Migration = {
  name: '20261128100100_create_pools',
  async up(db) {
    await db.schema.createTable('pools', (t) => {
      t.string('id', 64).primary();
      t.string('user_id', 64).notNullable();
      t.string('name', 64).notNullable();
      // Its members' image and dev flag (all members share them), fixed at creation.
      t.string('image', 32).notNullable();
      t.string('chain', 32).notNullable();
      t.boolean('dev').notNullable();
      t.integer('max_lag_blocks').notNullable();
      // As a node's: [{kind, id, name, user, passwordSha256 | tokenSha256, createdAt}], and its access rules (null: none).
      t.jsonb('credentials').notNullable().defaultTo('[]');
      t.jsonb('access');
      t.integer('revision').notNullable().defaultTo(0);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // A deleted pool stays for audit (and its usage's attribution), gone from the API.
      t.boolean('deleted').notNullable().defaultTo(false);
      t.index(['user_id', 'created_at']);
    });
    await db.schema.createTable('pool_members', (t) => {
      t.string('pool_id', 64).notNullable().references('id').inTable('pools').onDelete('CASCADE');
      t.string('node_id', 64).notNullable();
      t.integer('position').notNullable();
      t.primary(['pool_id', 'node_id']);
      // A deleted node leaves every pool it is in: found by node.
      t.index(['node_id']);
    });
  },
  async down(db) {
    await db.schema.dropTable('pool_members');
    await db.schema.dropTable('pools');
  },
};
