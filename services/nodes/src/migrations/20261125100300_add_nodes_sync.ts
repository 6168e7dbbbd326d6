import type { Migration } from '@cloud/db';

export const addNodesSync: Migration = {
  name: '20261125100300_add_nodes_sync',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // What the node last reported of its sync with its network (all null before it answered).
      t.bigInteger('sync_height');
      // Its best header, or the network tip it syncs towards.
      t.bigInteger('sync_best_known_height');
      // 0 to 1.
      t.double('sync_progress');
      t.integer('sync_peers');
      // Still in initial block download (or bootstrapping).
      t.boolean('sync_syncing');
      t.timestamp('sync_checked_at', { useTz: true });
    });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumns('sync_height', 'sync_best_known_height', 'sync_progress', 'sync_peers', 'sync_syncing', 'sync_checked_at');
    });
  },
};
