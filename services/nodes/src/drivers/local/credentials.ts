import { makeRpcAuth } from '@cloud/dev-chain';
import { NODE_RPC_USER } from '@cloud/node-rpc-auth';

/** bitcoind's `-rpcauth` value (`share/rpcauth`'s format): only a salted hash of the password. */
export function rpcAuth(password: string): string {
  return makeRpcAuth(NODE_RPC_USER, password);
}
