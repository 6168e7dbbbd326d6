import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { EncryptedKey } from '../data-access/validator-record';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;

/** A key-encryption key's id: the start of its SHA-256, which tells keys apart and reveals nothing of a random 256-bit key. */
export function keyIdOf(key: Buffer): string {
  return `k1-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * Seals validators' staking keys at rest with AES-256-GCM: a random 12-byte IV per key, and the
 * validator's node id as additional authenticated data, so a sealed key copied onto another
 * validator's row does not open. New keys are sealed with `current`; `previous` keys still open
 * what they sealed, which is how the key-encryption key is rotated.
 */
export class StakingKeyCipher {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('a staking key-encryption key must be 32 bytes');
      this.keys.set(keyIdOf(key), key);
    }
    this.currentKeyId = keyIdOf(current);
  }

  encrypt(plaintext: string, aad: string): EncryptedKey {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.currentKeyId, iv, ciphertext, authTag: cipher.getAuthTag() };
  }

  /** Opens a sealed key; throws when the key-encryption key is not known here, or the ciphertext, tag or AAD do not match. */
  decrypt(sealed: EncryptedKey, aad: string): string {
    const key = this.keys.get(sealed.keyId);
    if (!key) throw new Error(`the staking key was encrypted with key ${sealed.keyId}, which is not configured`);
    const decipher = createDecipheriv(ALGORITHM, key, sealed.iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.authTag);
    try {
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error("the staking key does not decrypt: wrong key, tampered ciphertext or another validator's key");
    }
  }
}
