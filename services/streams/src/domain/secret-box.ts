import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals streams' signing secrets at rest (AES-256-GCM, the stream's id as associated data, so a
 * sealed secret copied to another row does not open): the service must sign with the secret
 * itself, so it cannot keep only a hash. `<keyId>.<iv>.<tag>.<ciphertext>`, base64url.
 */
export class SecretBox {
  /** Names the key (the first bytes of its hash), so sealed values can be re-sealed when it changes. */
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the streams secret key must be 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  seal(secret: string, streamId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(streamId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string, streamId: string): string {
    const [keyId, iv, tag, ciphertext] = sealed.split('.');
    if (keyId !== this.keyId || !iv || !tag || ciphertext === undefined) throw new Error('this secret was sealed with another key');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(streamId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A new signing secret: `whsec_` and 32 random bytes, shown to the user once. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
