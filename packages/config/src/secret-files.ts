import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Reads a secret (a key, a PEM) from `file`, or, when it does not exist yet, makes it with
 * `generate` and keeps it there readable by the owner only. This is how the embedded default keeps
 * its generated keys under $DATA_DIR across restarts.
 */
export function readOrCreateSecretFile(file: string, generate: () => string | Buffer): Buffer {
  if (existsSync(file)) return readFileSync(file);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = generate();
  // 'wx' fails if another process created the file in the meantime; then read theirs.
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file);
}
