import type { Migration } from '@cloud/db';

export const createNodes: Migration = {
  name: '20261122100100_create_nodes',
  async up(db) {
    await db.schema.createTable('nodes', (t) => {
      t.string('id', 64).primary();
      t.string('user_id', 64).notNullable();
      t.string('image', 32).notNullable();
      t.boolean('large').notNullable();
      t.boolean('jwt').notNullable();
      // What the driver ran the node with when it was created (`<name>-<version>`).
      t.string('software', 128).notNullable();
      // provisioning | running | failed | deleting | deleted; a deleted row stays for audit.
      t.string('state', 16).notNullable();
      t.text('state_reason');
      // Basic credentials for the proxy: the user name, and a SHA-256 of the random password
      // (high-entropy, so a fast hash is safe and the proxy can check every call cheaply).
      // Both null for a jwt node.
      t.string('node_user', 64);
      t.string('node_password_hash', 64);
      t.integer('revision').notNullable().defaultTo(0);
      // The nodes-service instance that drives this node, until its lease runs out.
      t.string('owner', 128);
      t.timestamp('lease_expires_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.timestamp('deleted_at', { useTz: true });
      t.index(['user_id', 'created_at']);
      t.index(['state']);
    });
  },
  async down(db) {
    await db.schema.dropTable('nodes');
  },
};
