import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateSigningKeyPem, loadSigningKey, type SigningKey } from '@cloud/auth';
import { readOrCreateSecretFile } from '@cloud/config';
import type { AccountsConfig } from './config';

export interface AccountsKeys {
  signingKey: SigningKey;
  clientSecretHashKey: Buffer;
  /** True when a key was made under $DATA_DIR rather than read from a configured file. */
  generated: boolean;
}

const MIN_HASH_KEY_BYTES = 32;

/**
 * The token signing key and the client-secret hash key: from the configured files, or made once
 * under $DATA_DIR/keys (the embedded default). Every replica must share the same files.
 */
export function loadAccountsKeys(config: AccountsConfig): AccountsKeys {
  const keysDir = path.join(config.DATA_DIR, 'keys');
  const signingPem = config.AUTH_SIGNING_KEY_FILE
    ? readFileSync(config.AUTH_SIGNING_KEY_FILE)
    : readOrCreateSecretFile(path.join(keysDir, 'auth-signing-key.pem'), generateSigningKeyPem);
  const hashKey = (
    config.CLIENT_SECRET_HASH_KEY_FILE
      ? readFileSync(config.CLIENT_SECRET_HASH_KEY_FILE)
      : readOrCreateSecretFile(path.join(keysDir, 'client-secret-hash.key'), () => randomBytes(48).toString('base64'))
  )
    .toString()
    .trim();
  if (Buffer.byteLength(hashKey) < MIN_HASH_KEY_BYTES) {
    throw new Error(`CLIENT_SECRET_HASH_KEY_FILE: the key must be at least ${MIN_HASH_KEY_BYTES} bytes`);
  }
  let signingKey: SigningKey;
  try {
    signingKey = loadSigningKey(signingPem);
  } catch (error) {
    throw new Error(`AUTH_SIGNING_KEY_FILE: ${(error as Error).message}`, { cause: error });
  }
  return {
    signingKey,
    clientSecretHashKey: Buffer.from(hashKey),
    generated: !config.AUTH_SIGNING_KEY_FILE || !config.CLIENT_SECRET_HASH_KEY_FILE,
  };
}
