import type { Migration } from '@cloud/db';

export const addTwoFactor: Migration = {
  name: '20261125000100_add_two_factor',
  async up(db) {
    await db.schema.alterTable('users', (t) => {
      // The TOTP secret, AES-256-GCM encrypted (iv.tag.ciphertext, base64url); pending until enabled_at is set.
      t.string('two_factor_secret', 200).nullable();
      t.timestamp('two_factor_enabled_at', { useTz: true }).nullable();
      // The newest TOTP time step accepted: a code of that step or an older one is never taken again.
      t.bigInteger('two_factor_last_step').nullable();
    });
    await db.schema.createTable('recovery_codes', (t) => {
      t.string('user_id', 64).notNullable().references('id').inTable('users').onDelete('CASCADE');
      // HMAC-SHA256 of the code; a code is single use.
      t.string('code_hash', 64).notNullable();
      t.timestamp('used_at', { useTz: true }).nullable();
      t.primary(['user_id', 'code_hash']);
    });
  },
  async down(db) {
    await db.schema.dropTable('recovery_codes');
    await db.schema.alterTable('users', (t) => {
      t.dropColumns('two_factor_secret', 'two_factor_enabled_at', 'two_factor_last_step');
    });
  },
};
