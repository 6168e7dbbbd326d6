import type { Migration } from '@cloud/db';

export const addValidatorsDev: Migration = {
  name: '20261127120000_add_validators_dev',
  async up(db) {
    await db.schema.alterTable('validators', (t) => {
      // Whether the node runs on a private dev chain, as the nodes service announced it (the
      // route's `dev`); null until the node's first announcement after this column was added.
      t.boolean('node_dev');
    });
  },
  async down(db) {
    await db.schema.alterTable('validators', (t) => {
      t.dropColumn('node_dev');
    });
  },
};
