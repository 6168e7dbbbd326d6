import type { Migration } from '@cloud/db';

export const addNodesDevAndTxindex: Migration = {
  name: '20261125100200_add_nodes_dev_and_txindex',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // Runs on a private dev chain (regtest, anvil, the dev chain) rather than its image's network.
      t.boolean('dev').notNullable().defaultTo(false);
      // Keeps a transaction index (-txindex), as asked at creation.
      t.boolean('txindex').notNullable().defaultTo(false);
    });
    // Until now the local driver ran every node on a dev chain, and the kubernetes driver none:
    // the dev chain and anvil say so in their software label, a local node in its loopback upstream.
    await db('nodes')
      .where((q) =>
        q.where('software', 'like', 'cloud-dev-chain-%').orWhere('software', 'like', 'anvil-%').orWhere('upstream_url', 'like', 'http://127.0.0.1:%'),
      )
      .whereNot('software', 'like', 'avalanchego-%')
      .update({ dev: true });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('dev');
      t.dropColumn('txindex');
    });
  },
};
