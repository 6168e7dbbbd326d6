import { request } from 'undici';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';

/** One JSON-RPC call to a node: its result, or a NodeReadError. */
export type NodeRpc = (method: string, params: unknown[]) => Promise<unknown>;

/** The node a stream reads (FollowTarget of domain/node-routes, which this layer does not import). */
export interface NodeRpcTarget {
  nodeId: string;
  upstream: string;
  family: 'ethereum' | 'bitcoin';
}

/** A call to a node that gave no result: HTTP or network failure, an answer that is not JSON-RPC, or the node's own error. */
export class NodeReadError extends Error {
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(`${method}: ${reason}`);
    this.name = 'NodeReadError';
  }
}

interface RpcAnswer {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

/**
 * Calls to one node's own RPC, logged in with the node's internal login (derived from the shared
 * key and the node's id; never the user's credentials): JSON-RPC 1.0 for the Bitcoin family, 2.0
 * for eth. Each call, answer read included, is bounded by `timeoutMs`. Bitcoin-family daemons
 * answer a call's error with HTTP 500 and the JSON-RPC error in the body: the error is reported.
 */
export function nodeRpcFor(target: NodeRpcTarget, rpcKey: Buffer, timeoutMs: number): NodeRpc {
  const authorization = nodeRpcAuthorization(rpcKey, target.nodeId);
  const dialect = target.family === 'bitcoin' ? '1.0' : '2.0';
  return async (method, params) => {
    let statusCode: number;
    let text: string;
    try {
      const answer = await request(target.upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ jsonrpc: dialect, id: 1, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      statusCode = answer.statusCode;
      text = await answer.body.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new NodeReadError(method, timedOut ? `no answer within ${timeoutMs} ms` : (error as Error).message);
    }
    let reply: RpcAnswer;
    try {
      reply = JSON.parse(text) as RpcAnswer;
    } catch {
      throw new NodeReadError(method, `HTTP ${statusCode}, not JSON: ${text.slice(0, 200)}`);
    }
    if (reply.error) throw new NodeReadError(method, `node error ${reply.error.code ?? ''}: ${reply.error.message ?? 'unknown'}`.replace(' :', ':'));
    if (statusCode !== 200 || !('result' in reply)) throw new NodeReadError(method, `HTTP ${statusCode}, no result`);
    return reply.result;
  };
}
