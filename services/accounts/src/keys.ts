import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateSigningKeyPem, loadSigningKey, type SigningKey } from '@cloud/auth';
import { readOrCreateSecretFile } from '@cloud/config';
import type { AccountsConfig } from './config';

export interface AccountsKeys {
  signingKey: SigningKey;
  clientSecretHashKey: Buffer;
  /** Key material the two-factor secrets' encryption key and the recovery codes' hash key are derived from. */
  twoFactorKey: Buffer;
  /** True when a key was made under $DATA_DIR rather than read from a configured file. */
  generated: boolean;
}

const MIN_SYMMETRIC_KEY_BYTES = 32;

/**
 * A symmetric key: the configured file's content, or a random one made once under `keysDir`.
 * Either way at least 32 bytes, trimmed, so `openssl rand -base64 48 > file` works as it is.
 */
function loadSymmetricKey(configured: string | undefined, keysDir: string, fileName: string, variable: string): Buffer {
  const key = (configured ? readFileSync(configured) : readOrCreateSecretFile(path.join(keysDir, fileName), () => randomBytes(48).toString('base64')))
    .toString()
    .trim();
  if (Buffer.byteLength(key) < MIN_SYMMETRIC_KEY_BYTES) {
    throw new Error(`${variable}: the key must be at least ${MIN_SYMMETRIC_KEY_BYTES} bytes`);
  }
  return Buffer.from(key);
}

/**
 * The token signing key, the client-secret hash key and the two-factor key: from the configured
 * files, or made once under $DATA_DIR/keys (the embedded default). Every replica must share the same files.
 */
export function loadAccountsKeys(config: AccountsConfig): AccountsKeys {
  const keysDir = path.join(config.DATA_DIR, 'keys');
  const signingPem = config.AUTH_SIGNING_KEY_FILE
    ? readFileSync(config.AUTH_SIGNING_KEY_FILE)
    : readOrCreateSecretFile(path.join(keysDir, 'auth-signing-key.pem'), generateSigningKeyPem);
  const clientSecretHashKey = loadSymmetricKey(config.CLIENT_SECRET_HASH_KEY_FILE, keysDir, 'client-secret-hash.key', 'CLIENT_SECRET_HASH_KEY_FILE');
  const twoFactorKey = loadSymmetricKey(config.TWO_FACTOR_KEY_FILE, keysDir, 'two-factor.key', 'TWO_FACTOR_KEY_FILE');
  let signingKey: SigningKey;
  try {
    signingKey = loadSigningKey(signingPem);
  } catch (error) {
    throw new Error(`AUTH_SIGNING_KEY_FILE: ${(error as Error).message}`, { cause: error });
  }
  return {
    signingKey,
    clientSecretHashKey,
    twoFactorKey,
    generated: !config.AUTH_SIGNING_KEY_FILE || !config.CLIENT_SECRET_HASH_KEY_FILE || !config.TWO_FACTOR_KEY_FILE,
  };
}
