import { z } from 'zod';
import { nodeRouteSchema } from './messages';

const id = z.string().min(1).max(128);

/**
 * Requests a service answers over the bus, with the schemas of the request and the reply. The
 * reply is checked on receipt, like every message.
 */
export const rpcSchemas = {
  /**
   * Every revocation still able to matter (younger than the longest lifetime of a token other
   * services accept), so a service that starts, or reconnects after missing broadcasts, knows what
   * its peers already know. Paged, oldest first: `limit` revocations at most per reply (the
   * server's default when omitted), `next` the cursor of the following page, null or absent on the
   * last. A page is folded (one entry per key, the highest version per user). `latestAt` is when
   * the page's newest revocation was made: the receiver forgets the page's entries as if all were
   * made then (absent: as if made now), which keeps none of them too short.
   */
  'revocations.snapshot': {
    request: z.object({ after: id.optional(), limit: z.number().int().min(1).max(5000).optional() }),
    reply: z.object({
      clientKeys: z.array(z.object({ userId: id, clientId: id })),
      credentials: z.array(z.object({ userId: id, credentialsVersion: z.number().int().nonnegative() })),
      users: z.array(id),
      latestAt: z.iso.datetime({ offset: true }).optional(),
      next: id.nullable().optional(),
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

/**
 * Nobody serves the method: no replica of the serving service has started answering it (yet).
 * The bus learns it at once (RabbitMQ returns the unroutable request), so `request` retries with a
 * short backoff until its timeout rather than wait the whole timeout for an answer that cannot come.
 */
export class RpcUnservedError extends RpcError {}

/** Backoff between two tries of a request nobody serves: 50 ms doubling to 500 ms. */
const UNSERVED_RETRY_MS = { first: 50, max: 500 };

/**
 * Sends a request with `send` (which gets the time left) and tries again, after a short backoff,
 * for as long as nobody serves it, until `timeoutMs` have passed. So services started together
 * find each other within half a second of the server starting, in any start order.
 */
export async function requestUntilServed<T>(method: RpcMethod, timeoutMs: number, send: (remainingMs: number) => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = UNSERVED_RETRY_MS.first; ; delay = Math.min(delay * 2, UNSERVED_RETRY_MS.max)) {
    try {
      return await send(Math.max(1, deadline - Date.now()));
    } catch (error) {
      if (!(error instanceof RpcUnservedError)) throw error;
      const remaining = deadline - Date.now();
      // Too little time left for another try to come back: wait out the timeout and say why.
      const giveUp = remaining < delay + UNSERVED_RETRY_MS.first;
      await new Promise((resolve) => setTimeout(resolve, giveUp ? Math.max(0, remaining) : delay));
      if (giveUp) throw new RpcUnservedError(`nobody served ${method} within ${timeoutMs} ms`);
    }
  }
}

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
