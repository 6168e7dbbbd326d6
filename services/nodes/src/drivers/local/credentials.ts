import { createHmac } from 'node:crypto';
import { makeRpcAuth } from '@cloud/dev-chain';

/** The RPC user the node-proxy logs in as. */
export const RPC_USER = 'cloud-proxy';

/** Derived, never stored: any instance holding the secret key can reach any node. */
export function rpcPassword(secretKey: Buffer, nodeId: string): string {
  return createHmac('sha256', secretKey).update(nodeId).digest('hex');
}

/** bitcoind's `-rpcauth` value (`share/rpcauth`'s format): only a salted hash of the password. */
export function rpcAuth(password: string): string {
  return makeRpcAuth(RPC_USER, password);
}

export function basicAuthorization(password: string): string {
  return `Basic ${Buffer.from(`${RPC_USER}:${password}`).toString('base64')}`;
}
