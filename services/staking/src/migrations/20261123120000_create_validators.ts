import type { Migration } from '@cloud/db';

export const createValidators: Migration = {
  name: '20261123120000_create_validators',
  async up(db) {
    await db.schema.createTable('validators', (t) => {
      // `node-<uuid>`: also the id of the validator's node at the nodes service.
      t.string('id', 64).primary();
      t.string('user_id', 64).notNullable();
      t.string('chain', 32).notNullable();
      t.string('network', 32).notNullable();
      t.string('image', 32).notNullable();
      // `NodeID-…`: derived from the certificate, the id the P-chain knows the validator by.
      t.string('chain_node_id', 64).notNullable().unique();
      t.text('certificate_pem').notNullable();
      // The staking private key (PKCS#8 PEM), AES-256-GCM encrypted with the AAD = id; the key id
      // names the key-encryption key, so rows can be re-encrypted when it is rotated.
      t.binary('key_ciphertext').notNullable();
      t.binary('key_iv').notNullable();
      t.binary('key_auth_tag').notNullable();
      t.string('key_encryption_key_id', 64).notNullable();
      // The node's Basic credentials: user name and hex SHA-256 of the random password.
      t.string('node_user', 64).notNullable();
      t.string('node_password_hash', 64).notNullable();
      // The node as the nodes service last announced it (node.* messages), at `node_revision`.
      t.string('node_state', 16).notNullable().defaultTo('provisioning');
      t.text('node_state_reason');
      t.integer('node_revision').notNullable().defaultTo(-1);
      t.text('upstream_url');
      // The last P-chain registration read from the node: kept because it cannot be undone.
      t.string('registration_tx_id', 128);
      t.timestamp('registration_start_at', { useTz: true });
      t.timestamp('registration_end_at', { useTz: true });
      t.string('registration_stake', 40);
      t.timestamp('registration_observed_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // Set when the user deleted it (or was deleted); the row stays for audit.
      t.timestamp('deleted_at', { useTz: true });
      t.index(['user_id', 'chain', 'network', 'created_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('validators');
  },
};
