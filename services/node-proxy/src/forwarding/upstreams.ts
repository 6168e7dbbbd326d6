import type { ServerResponse } from 'node:http';
import { errors, Pool, type Dispatcher } from 'undici';
import type { NodeErrorScan } from '../usage/node-error-scan';
import { AnswerTooLargeError, type AnswerLimit } from './answer-limit';
import { AnswerWriter, type AnswerReview } from './answer-writer';
import { HeldFailureError, UpstreamError } from './upstream-error';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import type { Family } from '../routing/interfaces';
import type { Route } from '../routing/route-table';

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Path and query under the node's base URL, starting with `/`. */
  path: string;
  /** Text, or the caller's own bytes when they are exactly what was checked. */
  body?: string | Buffer;
  /** Headers from the caller worth passing on (content type, accept); never its credentials. */
  headers?: Record<string, string>;
  /** A bound of the proxy's own reads (head reads) below the upstream timeout callers get. */
  timeoutMs?: number;
}

export { HeldFailureError, UpstreamError };

/**
 * Connections the proxy opens to one node at most; calls beyond wait in the pool (bounded by the
 * upstream timeout). Bitcoin-family daemons serve RPC on 4 threads with a work queue of 16 and
 * answer 503 "Work queue depth exceeded" to whatever comes beyond that, so their callers would
 * see a node error under a burst that the proxy can queue instead.
 */
export const CONNECTIONS_PER_NODE: Record<Family, number> = { bitcoin: 16, ethereum: 32, avalanche: 32 };

interface Upstream {
  pool: Pool;
  basePath: string;
  authorization: string;
}

/**
 * Connections to the nodes: one keep-alive pool per node, logging in with the node's internal
 * credentials (derived from the shared key; the caller's never pass). Pools are dropped when a
 * node's route changes or goes away.
 */
export class Upstreams {
  private readonly upstreams = new Map<string, Upstream>();

  /** `maxAnswerBytes`: the operator's answer bound, for nodes whose owner set none. */
  constructor(private readonly options: { key: Buffer; timeoutMs: number; maxAnswerBytes: number }) {}

  /** A node's answer bound: its owner's, else the operator's. */
  answerLimit(route: Route): AnswerLimit {
    const own = route.rules?.maxAnswerBytes;
    return own === undefined ? { bytes: this.options.maxAnswerBytes, setBy: 'platform' } : { bytes: own, setBy: 'accessRule' };
  }

  /** Forwards a request and reads the node's whole answer as text, within the node's answer bound. */
  async requestText(route: Route, request: UpstreamRequest): Promise<{ statusCode: number; text: string }> {
    const upstream = this.upstreamOf(route);
    const limit = this.answerLimit(route);
    let answer: Dispatcher.ResponseData;
    try {
      answer = await upstream.pool.request(this.requestOptions(upstream, request));
    } catch (error) {
      throw toUpstreamError(error);
    }
    if (answer.statusCode === 401 || answer.statusCode === 403) {
      // The node refused the proxy's own login: a platform fault, not the caller's.
      await answer.body.dump();
      throw new UpstreamError(502, "the node refused the proxy's credentials");
    }
    const announced = Number(answer.headers['content-length'] ?? Number.NaN);
    if (announced > limit.bytes) {
      // Destroyed unread, the body reports it as an error of its own: nobody else listens.
      answer.body.on('error', () => undefined).destroy();
      throw new AnswerTooLargeError(limit, announced);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        // Leaving the loop destroys the body (and the connection it came on).
        if (size > limit.bytes) throw new AnswerTooLargeError(limit);
        chunks.push(chunk);
      }
    } catch (error) {
      throw toUpstreamError(error);
    }
    return { statusCode: answer.statusCode, text: Buffer.concat(chunks, size).toString('utf8') };
  }

  /**
   * Forwards a request and writes the node's answer straight into `res` (status, content type and
   * length only) as it arrives (`AnswerWriter`, undici's lowest-level API: this is every call's
   * path); resolves with the answer's size once sent. With `scan`, the answer's chunks are also
   * fed to it on the way (a JSON-RPC answer's errors); with `review`, some answers are judged
   * whole first (`AnswerReview`).
   */
  streamTo(route: Route, request: UpstreamRequest, res: ServerResponse, scan?: NodeErrorScan, review?: AnswerReview): Promise<number> {
    const upstream = this.upstreamOf(route);
    return new Promise((resolve, reject) => {
      const writer = new AnswerWriter(
        res,
        scan,
        this.answerLimit(route),
        (outcome) => {
          if (outcome.ok) resolve(outcome.size);
          else reject('refusedLogin' in outcome ? new UpstreamError(502, "the node refused the proxy's credentials") : toUpstreamError(outcome.error));
        },
        review,
      );
      try {
        upstream.pool.dispatch(this.requestOptions(upstream, request), writer);
      } catch (error) {
        reject(toUpstreamError(error));
      }
    });
  }

  /** The node's base URL for a WebSocket and the header to log in with. */
  webSocketTarget(route: Route): { url: string; authorization: string } {
    const upstream = this.upstreamOf(route);
    const url = new URL(route.upstream!);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return { url: url.href, authorization: upstream.authorization };
  }

  /** Closes the node's connections (its route changed or it is gone). */
  forget(nodeId: string): void {
    const upstream = this.upstreams.get(nodeId);
    if (!upstream) return;
    this.upstreams.delete(nodeId);
    void upstream.pool.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    const pools = [...this.upstreams.values()].map((upstream) => upstream.pool);
    this.upstreams.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }

  private requestOptions(upstream: Upstream, request: UpstreamRequest): Dispatcher.RequestOptions {
    return {
      method: request.method,
      path: upstream.basePath + request.path,
      headers: { ...request.headers, authorization: upstream.authorization },
      body: request.body,
      headersTimeout: request.timeoutMs ?? this.options.timeoutMs,
      bodyTimeout: request.timeoutMs ?? this.options.timeoutMs,
    };
  }

  private upstreamOf(route: Route): Upstream {
    let upstream = this.upstreams.get(route.nodeId);
    if (!upstream) {
      const url = new URL(route.upstream!);
      upstream = {
        pool: new Pool(url.origin, { connections: CONNECTIONS_PER_NODE[route.interfaces.family], keepAliveTimeout: 30_000 }),
        basePath: url.pathname.replace(/\/$/, ''),
        authorization: nodeRpcAuthorization(this.options.key, route.nodeId),
      };
      this.upstreams.set(route.nodeId, upstream);
    }
    return upstream;
  }
}

/** Connection errors that leave no doubt nothing of the request reached the node. */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

function toUpstreamError(error: unknown): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return new UpstreamError(504, 'the node did not answer in time');
  }
  if (error instanceof errors.ConnectTimeoutError) return new UpstreamError(504, 'the node did not accept the connection in time', undefined, true);
  const code = (error as { code?: string }).code;
  return new UpstreamError(502, `the node cannot be reached${code ? ` (${code})` : ''}`, undefined, code !== undefined && UNSENT_CODES.has(code));
}
