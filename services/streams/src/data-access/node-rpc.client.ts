// STAND-IN (branch i32-api): the smallest node RPC client the API's backfill check needs; the
// follow branch's data-access/node-rpc.client.ts (i32-follow) replaces this file at merge.
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';

export type NodeRpc = (method: string, params: unknown[]) => Promise<unknown>;

/** A node call failed: the method, and why. */
export class NodeReadError extends Error {}

/** JSON-RPC to the node's own RPC over its internal login (2.0 for eth, 1.0 for the Bitcoin family). */
export function nodeRpcFor(target: { nodeId: string; upstream: string; family: 'ethereum' | 'bitcoin' }, rpcKey: Buffer, timeoutMs: number): NodeRpc {
  const authorization = nodeRpcAuthorization(rpcKey, target.nodeId);
  return async (method, params) => {
    const envelope = target.family === 'ethereum' ? { jsonrpc: '2.0' } : { jsonrpc: '1.0' };
    try {
      const response = await fetch(target.upstream, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ ...envelope, id: 1, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer = (await response.json()) as { result?: unknown; error?: { message?: string } | null };
      if (answer.error) throw new Error(answer.error.message ?? JSON.stringify(answer.error));
      return answer.result;
    } catch (error) {
      throw new NodeReadError(`${method}: ${(error as Error).message}`);
    }
  };
}
