import type { Migration } from '@cloud/db';

export const addNodesLeaseGeneration: Migration = {
  name: '20261125170100_add_nodes_lease_generation',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // Raised by every claim of the node's lease: the fencing token of the owner's writes, so an
      // instance that lost the lease (and may not know yet) cannot change the node.
      t.integer('lease_generation').notNullable().defaultTo(0);
    });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('lease_generation');
    });
  },
};
