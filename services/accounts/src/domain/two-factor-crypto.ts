import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { ServiceUnavailableError } from '@cloud/http';
import { keyedHashHex } from './credentials';

/**
 * A stored two-factor secret does not open with this server's key. Answered 503 (the operator
 * must put the key the secrets were sealed with back in TWO_FACTOR_KEY_FILE), and logged by the
 * error handler with its cause.
 */
export class TwoFactorKeyMismatchError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super('two-factor login cannot be checked on this server right now; try again later', 'TwoFactorUnavailable', 60);
    this.cause = cause;
  }
}

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'; // no 0/o, 1/l: codes are typed from paper
const RECOVERY_CODE_LENGTH = 10; // 50 bits each

const derive = (material: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), `cloud-accounts ${purpose}`, 32));

/**
 * Keeps two-factor secrets encrypted at rest and recovery codes hashed, with keys derived from
 * TWO_FACTOR_KEY_FILE: a copy of the database alone reveals neither.
 */
export class TwoFactorCrypto {
  private readonly encryptionKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(keyMaterial: Buffer) {
    this.encryptionKey = derive(keyMaterial, 'two-factor secret encryption');
    this.hashKey = derive(keyMaterial, 'recovery code hash');
  }

  /** AES-256-GCM; the user id is the associated data, so a secret copied to another user's row does not decrypt. */
  encrypt(userId: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv).setAAD(Buffer.from(userId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
  }

  /**
   * The secret `encrypt` sealed. One that does not open (TWO_FACTOR_KEY_FILE replaced, or not the
   * same file on every replica) is the server's fault, not the user's: 503, and the log says why.
   */
  decrypt(userId: string, sealed: string): string {
    try {
      const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !tag || !ciphertext) throw new Error('malformed two-factor secret');
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, iv).setAAD(Buffer.from(userId)).setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new TwoFactorKeyMismatchError(error);
    }
  }

  /** Recovery codes are random (50 bits each), so a keyed fast hash is enough, as for client secrets. */
  hashRecoveryCode(code: string): string {
    return keyedHashHex(this.hashKey, normalizeRecoveryCode(code));
  }
}

/** `count` new recovery codes, shaped `xxxxx-xxxxx`. */
export function newRecoveryCodes(count: number): string[] {
  return Array.from({ length: count }, () => {
    let code = '';
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** A code as typed: case, spaces and hyphens do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}
