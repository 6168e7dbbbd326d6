import type { Migration } from '@cloud/db';

export const addNodesStartAfterStop: Migration = {
  name: '20261125100100_add_nodes_start_after_stop',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // A `stopping` node that the reconciler starts again once the driver has stopped it: a
      // restart, or a resize of a running node (stop, then start with the new resource class).
      t.boolean('start_after_stop').notNullable().defaultTo(false);
    });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('start_after_stop');
    });
  },
};
