import { z } from 'zod';
import { nodeRouteSchema } from './messages';

const id = z.string().min(1).max(128);

/**
 * Requests a service answers over the bus, with the schemas of the request and the reply. The
 * reply is checked on receipt, like every message.
 */
export const rpcSchemas = {
  /**
   * Every revocation still able to matter (younger than the longest token lifetime), so a service
   * that starts, or reconnects after missing broadcasts, knows what its peers already know.
   */
  'revocations.snapshot': {
    request: z.object({}),
    reply: z.object({
      clientKeys: z.array(z.object({ userId: id, clientId: id })),
      credentials: z.array(z.object({ userId: id, credentialsVersion: z.number().int().nonnegative() })),
      users: z.array(id),
    }),
  },
  /**
   * The routes of every node not yet deleted, a page at a time in node id order: a node-proxy
   * replica loads its routing table from it at start and after each reconnection.
   */
  'nodes.routes': {
    request: z.object({ after: id.optional(), limit: z.number().int().min(1).max(1000).default(500) }),
    reply: z.object({ routes: z.array(nodeRouteSchema), next: id.nullable() }),
  },
  /** The last `lines` lines of a node's log, oldest first (all that is kept when omitted). Fails for an unknown node. */
  'nodes.logs': {
    request: z.object({ nodeId: id, lines: z.number().int().min(1).max(100_000).optional() }),
    reply: z.object({ lines: z.array(z.string()) }),
  },
  /**
   * The staking TLS certificate and private key (PEM) of a validator's node, which the node
   * identifies itself with on the staking chain (its NodeID is derived from the certificate). Asked
   * by the nodes service's driver when it starts the node; fails for an unknown or deleted validator.
   */
  'staking.validator-tls': {
    request: z.object({ nodeId: id }),
    reply: z.object({ certificatePem: z.string().min(1).max(20_000), keyPem: z.string().min(1).max(20_000) }),
  },
} as const;

export type RpcMethod = keyof typeof rpcSchemas;
export type RpcRequest<M extends RpcMethod> = z.infer<(typeof rpcSchemas)[M]['request']>;
export type RpcReply<M extends RpcMethod> = z.infer<(typeof rpcSchemas)[M]['reply']>;
export type RpcHandler<M extends RpcMethod> = (request: RpcRequest<M>) => Promise<RpcReply<M>>;

/** The answer to a request, or why there is none: sent back to the caller as JSON. */
export type RpcResult = { ok: true; reply: unknown } | { ok: false; error: string };

export class RpcError extends Error {}

/** Parses and checks a reply against the method's schema. */
export function decodeRpcResult<M extends RpcMethod>(method: M, body: string): RpcReply<M> {
  let result: RpcResult;
  try {
    result = JSON.parse(body) as RpcResult;
  } catch {
    throw new RpcError(`${method}: the reply is not JSON`);
  }
  if (!result.ok) throw new RpcError(`${method} failed at the server: ${result.error}`);
  const reply = rpcSchemas[method].reply.safeParse(result.reply);
  if (!reply.success) throw new RpcError(`${method}: bad reply: ${z.prettifyError(reply.error)}`);
  return reply.data as RpcReply<M>;
}

/** Runs a handler on a received request body, never throwing: a failure becomes `{ok: false}`. */
export async function answerRpc<M extends RpcMethod>(method: M, handler: RpcHandler<M>, body: string): Promise<string> {
  try {
    const request = rpcSchemas[method].request.parse(JSON.parse(body));
    const result: RpcResult = { ok: true, reply: await handler(request as RpcRequest<M>) };
    return JSON.stringify(result);
  } catch (error) {
    const result: RpcResult = { ok: false, error: error instanceof Error ? error.message : String(error) };
    return JSON.stringify(result);
  }
}
