import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '@cloud/config';
import { isBase64Key, type StakingConfig } from './config';

type KeySettings = Pick<StakingConfig, 'STAKING_KEY_ENCRYPTION_KEY' | 'STAKING_KEY_ENCRYPTION_KEY_FILE' | 'DATA_DIR'>;

/**
 * The key that encrypts validators' staking keys at rest: STAKING_KEY_ENCRYPTION_KEY, or the file
 * STAKING_KEY_ENCRYPTION_KEY_FILE names, or (neither set, the embedded default) a key generated
 * once as $DATA_DIR/keys/staking-encryption.key, readable by the owner only. Every replica must
 * use the same key.
 */
export function loadStakingEncryptionKey(settings: KeySettings): Buffer {
  if (settings.STAKING_KEY_ENCRYPTION_KEY) return Buffer.from(settings.STAKING_KEY_ENCRYPTION_KEY.trim(), 'base64');
  const file = settings.STAKING_KEY_ENCRYPTION_KEY_FILE ?? path.join(settings.DATA_DIR, 'keys', 'staking-encryption.key');
  const text = readOrCreateSecretFile(file, () => randomBytes(32).toString('base64')).toString('utf8');
  if (!isBase64Key(text)) throw new Error(`${file} must hold the base64 of exactly 32 bytes (openssl rand -base64 32)`);
  return Buffer.from(text.trim(), 'base64');
}
