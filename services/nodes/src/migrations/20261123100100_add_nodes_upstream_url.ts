import type { Migration } from '@cloud/db';

export const addNodesUpstreamUrl: Migration = {
  name: '20261123100100_add_nodes_upstream_url',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // Where the node's RPC answers inside the platform (the driver's endpoint), while it runs;
      // the node-proxy forwards there. Null in every other state.
      t.text('upstream_url');
    });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('upstream_url');
    });
  },
};
