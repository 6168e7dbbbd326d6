import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSigningKeyPem, loadSigningKey, toPublicJwk } from '@cloud/auth';
import { ConfigError } from '@cloud/config';
import { loadAccountsConfig } from '../src';
import { loadAccountsKeys } from '../src/keys';
import { startTestAccounts } from '../src/testing';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'accounts-keys-'));

describe('accounts configuration', () => {
  it('has working defaults', () => {
    expect(loadAccountsConfig({})).toMatchObject({ ACCOUNTS_PORT: 3001, ACCOUNTS_HOST: '127.0.0.1', BCRYPT_ROUNDS: 12, MAX_CLIENT_KEYS_PER_USER: 20 });
  });

  it('stops on bad values, naming each variable', () => {
    let thrown: unknown;
    try {
      loadAccountsConfig({ ACCOUNTS_PORT: 'http', SMTP_URL: 'http://mail', BCRYPT_ROUNDS: '3' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['ACCOUNTS_PORT', 'BCRYPT_ROUNDS', 'SMTP_URL']);
  });
});

describe('accounts keys', () => {
  it('are generated once under DATA_DIR and kept across restarts', () => {
    const config = loadAccountsConfig({ DATA_DIR: tempDir() });
    const first = loadAccountsKeys(config);
    const second = loadAccountsKeys(config);
    expect(first.generated).toBe(true);
    expect(second.signingKey.kid).toBe(first.signingKey.kid);
    expect(second.clientSecretHashKey.equals(first.clientSecretHashKey)).toBe(true);
    expect(second.twoFactorKey.equals(first.twoFactorKey)).toBe(true);
    expect(first.twoFactorKey.equals(first.clientSecretHashKey)).toBe(false);
  });

  it('are read from the configured files', () => {
    const dir = tempDir();
    const pem = generateSigningKeyPem();
    writeFileSync(path.join(dir, 'signing.pem'), pem);
    writeFileSync(path.join(dir, 'hash.key'), 'h'.repeat(40));
    writeFileSync(path.join(dir, 'two-factor.key'), `${'t'.repeat(44)}\n`);
    const keys = loadAccountsKeys(
      loadAccountsConfig({
        DATA_DIR: dir,
        AUTH_SIGNING_KEY_FILE: path.join(dir, 'signing.pem'),
        CLIENT_SECRET_HASH_KEY_FILE: path.join(dir, 'hash.key'),
        TWO_FACTOR_KEY_FILE: path.join(dir, 'two-factor.key'),
      }),
    );
    expect(keys.generated).toBe(false);
    expect(keys.signingKey.kid).toBe(loadSigningKey(pem).kid);
    expect(keys.clientSecretHashKey.toString()).toBe('h'.repeat(40));
    expect(keys.twoFactorKey.toString()).toBe('t'.repeat(44));
  });

  it('refuse a short hash key or a signing key of the wrong type, naming the variable', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'short.key'), 'too short');
    expect(() => loadAccountsKeys(loadAccountsConfig({ DATA_DIR: dir, CLIENT_SECRET_HASH_KEY_FILE: path.join(dir, 'short.key') }))).toThrow(
      'CLIENT_SECRET_HASH_KEY_FILE: the key must be at least 32 bytes',
    );
    expect(() => loadAccountsKeys(loadAccountsConfig({ DATA_DIR: dir, TWO_FACTOR_KEY_FILE: path.join(dir, 'short.key') }))).toThrow(
      'TWO_FACTOR_KEY_FILE: the key must be at least 32 bytes',
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    writeFileSync(path.join(dir, 'rsa.pem'), rsa);
    expect(() => loadAccountsKeys(loadAccountsConfig({ DATA_DIR: dir, AUTH_SIGNING_KEY_FILE: path.join(dir, 'rsa.pem') }))).toThrow(
      'AUTH_SIGNING_KEY_FILE: the token signing key must be an EC P-256 private key (ES256)',
    );
  });

  it('publishes the signing key as a JWK set', async () => {
    const t = await startTestAccounts();
    try {
      const res = await t.http.get('/.well-known/jwks.json');
      expect(res.status).toBe(200);
      const expected = toPublicJwk(loadAccountsKeys(loadAccountsConfig({ DATA_DIR: t.dataDir })).signingKey.publicKey);
      expect(res.body).toEqual({ keys: [expected] });
      expect(res.body.keys[0]).not.toHaveProperty('d');
    } finally {
      await t.close();
    }
  });
});
