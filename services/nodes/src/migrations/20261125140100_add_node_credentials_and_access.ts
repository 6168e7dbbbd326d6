import type { Migration } from '@cloud/db';

/**
 * Several Basic credentials per node, and its owner's access rules, both on the node's row so
 * that every route the service announces (any `node.*` message, the `nodes.routes` snapshot)
 * carries them at the node's revision. The one credential a node had becomes its first, named
 * `default`; going down keeps the first credential in the old columns.
 */
export const addNodeCredentialsAndAccess: Migration = {
  name: '20261125140100_add_node_credentials_and_access',
  async up(db) {
    await db.schema.alterTable('nodes', (t) => {
      // [{id, name, user, passwordSha256, createdAt}], oldest first; empty for a jwt node.
      t.jsonb('credentials').notNullable().defaultTo('[]');
      // {ipAllowlist, originAllowlist, refusedMethods, ratePerSecond}; null: no rules.
      t.jsonb('access');
    });
    await db.raw(`
      update nodes set credentials = jsonb_build_array(jsonb_build_object(
        'id', 'cred-' || gen_random_uuid(), 'name', 'default', 'user', node_user,
        'passwordSha256', node_password_hash, 'createdAt', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      where node_user is not null and node_password_hash is not null`);
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('node_user');
      t.dropColumn('node_password_hash');
    });
  },
  async down(db) {
    await db.schema.alterTable('nodes', (t) => {
      t.string('node_user', 64);
      t.string('node_password_hash', 64);
    });
    await db.raw(`
      update nodes set node_user = credentials->0->>'user', node_password_hash = credentials->0->>'passwordSha256'
      where jsonb_array_length(credentials) > 0`);
    await db.schema.alterTable('nodes', (t) => {
      t.dropColumn('credentials');
      t.dropColumn('access');
    });
  },
};
