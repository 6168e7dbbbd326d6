import { createHash, randomBytes } from 'node:crypto';

export interface NodeCredentials {
  nodeUser: string;
  nodePass: string;
  /** What is stored: hex SHA-256 of the password. */
  passwordHash: string;
}

/**
 * New Basic credentials for a node. The password is 32 random bytes, so unlike a human password
 * it cannot be guessed from a fast hash: SHA-256 is enough, and the node-proxy can check it on
 * every call without the cost of bcrypt.
 */
export function newNodeCredentials(): NodeCredentials {
  const nodePass = randomBytes(32).toString('base64url');
  return { nodeUser: `u${randomBytes(8).toString('hex')}`, nodePass, passwordHash: hashNodePassword(nodePass) };
}

export function hashNodePassword(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('hex');
}

