import type { Migration } from '@cloud/db';

export const addNodesName: Migration = {
  name: '20261127100100_add_nodes_name',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // Its owner's label for the node (1-64 characters; the API's nodeNameSchema says which). Null:
      // none given, as for every node made before names and every validator's node. Not unique: a
      // label, the id stays what names the node (cloud nodes commands refuse an ambiguous name).
      t.string('name', 64).nullable();
    });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('name');
    });
  },
};
