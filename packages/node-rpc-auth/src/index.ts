import { createHash, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readOrCreateSecretFile } from '@cloud/config';

/**
 * The variable both the nodes service and the node-proxy read: they must share the key, since
 * the driver sets each node's RPC password from it and the proxy logs in with the same password.
 */
export const nodeRpcKeyEnvironment = z.object({
  /** Key deriving each node's own RPC password; unset: generated once as $DATA_DIR/keys/node-rpc.key. */
  NODE_RPC_KEY_FILE: z.string().min(1).optional(),
});

/** Reads the key, creating it (mode 0600) on first use when NODE_RPC_KEY_FILE is unset. */
export function loadNodeRpcKey(settings: { NODE_RPC_KEY_FILE?: string | undefined; DATA_DIR: string }): Buffer {
  const file = settings.NODE_RPC_KEY_FILE ?? path.join(settings.DATA_DIR, 'keys', 'node-rpc.key');
  return readOrCreateSecretFile(file, () => randomBytes(32).toString('base64'));
}

/** The RPC user the node-proxy logs in to every node as. */
export const NODE_RPC_USER = 'cloud-proxy';

/** A node's own RPC password: derived, never stored, so any holder of the key reaches any node and nobody else does. */
export function nodeRpcPassword(key: Buffer, nodeId: string): string {
  return createHmac('sha256', key).update(nodeId).digest('hex');
}

/** The `Authorization` header the proxy sends to a node. */
export function nodeRpcAuthorization(key: Buffer, nodeId: string): string {
  return `Basic ${Buffer.from(`${NODE_RPC_USER}:${nodeRpcPassword(key, nodeId)}`).toString('base64')}`;
}

/** A node's Basic credentials as its user calls it through the node-proxy. */
export interface NodeCredentials {
  nodeUser: string;
  nodePass: string;
  /** What is stored, and what the proxy checks: hex SHA-256 of the password. */
  passwordHash: string;
}

/**
 * New Basic credentials for a node: the nodes service makes them for a user's node, the staking
 * service for a validator's. The password is 32 random bytes, so unlike a human password it
 * cannot be guessed from a fast hash: SHA-256 is enough, and the node-proxy can check it on every
 * call without the cost of bcrypt.
 */
export function newNodeCredentials(): NodeCredentials {
  const nodePass = randomBytes(32).toString('base64url');
  return { nodeUser: `u${randomBytes(8).toString('hex')}`, nodePass, passwordHash: createHash('sha256').update(nodePass, 'utf8').digest('hex') };
}
