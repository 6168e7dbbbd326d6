import { createHmac } from 'node:crypto';
import { makeRpcAuth } from '@cloud/dev-chain';
import { NODE_RPC_USER, nodeRpcPassword } from '@cloud/node-rpc-auth';

/**
 * The node's `-rpcauth` value: the proxy's user with a salted hash of the node's derived password
 * (`nodeRpcPassword`), never the password. The salt is derived too, so the Secret comes out the
 * same from every instance of the service and adopting a node does not rewrite (and restart) it.
 */
export function nodeRpcAuth(key: Buffer, nodeId: string): string {
  return makeRpcAuth(NODE_RPC_USER, nodeRpcPassword(key, nodeId), derive(key, `rpcauth-salt:${nodeId}`).slice(0, 32));
}

/** The secret geth and its consensus client share for the engine API (32 bytes, hex), derived like the RPC password. */
export function engineJwtSecret(key: Buffer, nodeId: string): string {
  return derive(key, `engine-jwt:${nodeId}`);
}

function derive(key: Buffer, purpose: string): string {
  return createHmac('sha256', key).update(purpose).digest('hex');
}
