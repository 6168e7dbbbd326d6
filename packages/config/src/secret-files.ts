import { randomBytes } from 'node:crypto';
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

const KEY_BYTES = 32;

/** Base64 of exactly 32 bytes: an AES-256 key. */
export function isBase64Key(text: string): boolean {
  const trimmed = text.trim();
  return /^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) && Buffer.from(trimmed, 'base64').length === KEY_BYTES;
}

/**
 * An AES-256 key kept as base64 in `file`, made once (readable by the owner only) when the file
 * does not exist yet; a file holding anything else stops start-up, naming it.
 */
export function readOrCreateKeyFile(file: string): Buffer {
  const text = readOrCreateSecretFile(file, () => randomBytes(KEY_BYTES).toString('base64')).toString('utf8');
  if (!isBase64Key(text)) throw new Error(`${file} must hold the base64 of exactly 32 bytes (openssl rand -base64 32)`);
  return Buffer.from(text.trim(), 'base64');
}
