import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One -rpcauth entry: the user, and the salted HMAC of the password (never the password). */
export interface RpcAuth {
  user: string;
  salt: string;
  hash: string;
}

/** bitcoind's rpcauth hash: hex HMAC-SHA256 keyed with the salt string, over the password. */
export function rpcAuthHash(salt: string, password: string): string {
  return createHmac('sha256', salt).update(password).digest('hex');
}

/** The `user:salt$hash` value for -rpcauth, as Core's share/rpcauth/rpcauth.py makes it. */
export function makeRpcAuth(user: string, password: string, salt = randomBytes(16).toString('hex')): string {
  return `${user}:${salt}$${rpcAuthHash(salt, password)}`;
}

/** Parses `user:salt$hash`; throws on anything else, as bitcoind refuses to start on it. */
export function parseRpcAuth(value: string): RpcAuth {
  const fields = value.split(':');
  const saltHash = (fields[1] ?? '').split('$');
  const [user = '', salt = '', hash = ''] = [fields[0], ...saltHash];
  if (fields.length !== 2 || saltHash.length !== 2 || user === '' || salt === '' || !/^[0-9a-f]{64}$/.test(hash)) {
    throw new Error(`Invalid -rpcauth argument (expected user:salt$hash, hash as 64 lowercase hex digits): ${value}`);
  }
  return { user, salt, hash };
}

/** Checks an Authorization header (HTTP Basic) against the entries. */
export function isAuthorized(header: string | undefined, entries: RpcAuth[]): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const credentials = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  if (colon < 0) return false;
  const user = credentials.slice(0, colon);
  return entries.some(
    (entry) => entry.user === user && timingSafeEqual(Buffer.from(rpcAuthHash(entry.salt, credentials.slice(colon + 1))), Buffer.from(entry.hash)),
  );
}

/**
 * With no -rpcauth, bitcoind's cookie authentication: a random password for user `__cookie__`,
 * written to `<dir>/.cookie` for local clients to read.
 */
export function writeCookie(dir: string): { path: string; auth: RpcAuth } {
  const password = randomBytes(32).toString('hex');
  const path = join(dir, '.cookie');
  writeFileSync(path, `__cookie__:${password}`, { mode: 0o600 });
  return { path, auth: parseRpcAuth(makeRpcAuth('__cookie__', password)) };
}
