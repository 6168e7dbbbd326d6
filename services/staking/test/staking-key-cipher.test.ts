import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadStakingConfig } from '../src';
import { keyIdOf, StakingKeyCipher } from '../src/domain/staking-key-cipher';
import { loadStakingEncryptionKey } from '../src/encryption-key';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIJQgIBADANBgkqhkiG9w0BAQEFAASCCSwwggkoAgEAAoICAQC\n-----END PRIVATE KEY-----\n';
const NODE_ID = 'node-0f8e2c4a-5b1d-4e7f-9a3c-2d6b8e1f4a70';

describe('the staking key cipher', () => {
  const key = randomBytes(32);
  const cipher = new StakingKeyCipher(key);

  it('seals with AES-256-GCM under a fresh IV, and opens with the same key and node id', () => {
    const sealed = cipher.encrypt(PEM, NODE_ID);
    expect(sealed.keyId).toBe(keyIdOf(key));
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.authTag).toHaveLength(16);
    expect(sealed.ciphertext.toString('latin1')).not.toContain('PRIVATE KEY');
    expect(cipher.encrypt(PEM, NODE_ID).iv.equals(sealed.iv)).toBe(false);
    expect(cipher.decrypt(sealed, NODE_ID)).toBe(PEM);
  });

  it('refuses another key, a tampered ciphertext, tag or IV, and another node id', () => {
    const sealed = cipher.encrypt(PEM, NODE_ID);
    const flip = (buffer: Buffer) => Buffer.from(buffer.map((byte, index) => (index === 0 ? byte ^ 1 : byte)));
    expect(() => new StakingKeyCipher(randomBytes(32)).decrypt(sealed, NODE_ID)).toThrow(/not configured/);
    // Another key presented under this key's id: the tag does not verify.
    const impostor = new StakingKeyCipher(randomBytes(32));
    expect(() => impostor.decrypt({ ...sealed, keyId: impostor.currentKeyId }, NODE_ID)).toThrow(/does not decrypt/);
    expect(() => cipher.decrypt({ ...sealed, ciphertext: flip(sealed.ciphertext) }, NODE_ID)).toThrow(/does not decrypt/);
    expect(() => cipher.decrypt({ ...sealed, authTag: flip(sealed.authTag) }, NODE_ID)).toThrow(/does not decrypt/);
    expect(() => cipher.decrypt({ ...sealed, iv: flip(sealed.iv) }, NODE_ID)).toThrow(/does not decrypt/);
    expect(() => cipher.decrypt(sealed, 'node-another')).toThrow(/does not decrypt/);
  });

  it('opens keys sealed with a previous key after a rotation, and seals new ones with the current key', () => {
    const old = cipher.encrypt(PEM, NODE_ID);
    const rotated = new StakingKeyCipher(randomBytes(32), [key]);
    expect(rotated.decrypt(old, NODE_ID)).toBe(PEM);
    expect(rotated.encrypt(PEM, NODE_ID).keyId).toBe(rotated.currentKeyId);
    expect(rotated.currentKeyId).not.toBe(old.keyId);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new StakingKeyCipher(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('the staking key-encryption key', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'staking-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is generated once under $DATA_DIR/keys, readable by the owner only, and kept', () => {
    const first = loadStakingEncryptionKey(loadStakingConfig({ DATA_DIR: dir }));
    const file = path.join(dir, 'keys', 'staking-encryption.key');
    expect(first).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect(loadStakingEncryptionKey(loadStakingConfig({ DATA_DIR: dir })).equals(first)).toBe(true);
  });

  it('comes from STAKING_KEY_ENCRYPTION_KEY or STAKING_KEY_ENCRYPTION_KEY_FILE when set', () => {
    const key = randomBytes(32);
    expect(loadStakingEncryptionKey(loadStakingConfig({ DATA_DIR: dir, STAKING_KEY_ENCRYPTION_KEY: key.toString('base64') })).equals(key)).toBe(true);
    const file = path.join(dir, 'operator.key');
    writeFileSync(file, `${key.toString('base64')}\n`);
    expect(loadStakingEncryptionKey(loadStakingConfig({ DATA_DIR: dir, STAKING_KEY_ENCRYPTION_KEY_FILE: file })).equals(key)).toBe(true);
  });

  it('refuses a key file that does not hold 32 bytes in base64, naming it', () => {
    const file = path.join(dir, 'short.key');
    writeFileSync(file, randomBytes(16).toString('base64'));
    expect(() => loadStakingEncryptionKey(loadStakingConfig({ DATA_DIR: dir, STAKING_KEY_ENCRYPTION_KEY_FILE: file }))).toThrow(
      `${file} must hold the base64 of exactly 32 bytes`,
    );
  });
});
