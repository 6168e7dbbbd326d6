import path from 'node:path';
import { readOrCreateKeyFile } from '@cloud/config';
import type { StakingConfig } from './config';

type KeySettings = Pick<StakingConfig, 'STAKING_KEY_ENCRYPTION_KEY' | 'STAKING_KEY_ENCRYPTION_KEY_FILE' | 'DATA_DIR'>;

/**
 * The key that encrypts validators' staking keys at rest: STAKING_KEY_ENCRYPTION_KEY, or the file
 * STAKING_KEY_ENCRYPTION_KEY_FILE names, or (neither set, the embedded default) a key generated
 * once as $DATA_DIR/keys/staking-encryption.key, readable by the owner only. Every replica must
 * use the same key.
 */
export function loadStakingEncryptionKey(settings: KeySettings): Buffer {
  if (settings.STAKING_KEY_ENCRYPTION_KEY) return Buffer.from(settings.STAKING_KEY_ENCRYPTION_KEY.trim(), 'base64');
  return readOrCreateKeyFile(settings.STAKING_KEY_ENCRYPTION_KEY_FILE ?? path.join(settings.DATA_DIR, 'keys', 'staking-encryption.key'));
}
