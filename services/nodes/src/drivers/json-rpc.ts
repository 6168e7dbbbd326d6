import http from 'node:http';
import type { InternalEndpoint } from '../domain/node-driver';

/** A node's RPC as the driver calls it (probes, mining): its URL, with the `Authorization` the proxy sends too. */
export interface RpcTarget extends InternalEndpoint {
  authorization: string;
}

export interface RpcCall {
  method: string;
  /** Positional (Bitcoin Core, Ethereum) or named (avalanchego). */
  params: unknown[] | Record<string, unknown>;
  /** Where on the node the call is posted: `/` unless the API lives elsewhere (avalanchego's `/ext/info`). */
  path?: string;
}

/** The node answered, but not with a result: a JSON-RPC error (`code`), or HTTP `status` without a JSON-RPC answer (`busy` when it said its work queue is full). */
export class NodeAnswerError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
    readonly busy = false,
  ) {
    super(message);
  }
}

/** Bitcoin Core's RPC_IN_WARMUP: loading or verifying its blocks, it answers every call so until done. */
const IN_WARMUP = -28;

/** Whether the node said it is warming up (Bitcoin Core's -28): its process is up, it serves nothing yet. */
export function isWarmingUp(error: unknown): error is NodeAnswerError {
  return error instanceof NodeAnswerError && error.code === IN_WARMUP;
}

/**
 * Whether an error is the node answering that it cannot serve for a moment (warming up, or busy:
 * any HTTP 503, and Bitcoin Core's "Work queue depth exceeded", HTTP 500 in Litecoin Core 0.21):
 * alive, not hung.
 */
export function isAliveButUnavailable(error: unknown): boolean {
  return isWarmingUp(error) || (error instanceof NodeAnswerError && (error.status === 503 || error.busy));
}

/**
 * Calls a node's JSON-RPC and returns its result; throws on a transport error, a timeout, an HTTP
 * error without a JSON-RPC answer, or a JSON-RPC error (the last two as `NodeAnswerError`). One
 * connection per call (no keep-alive), so nothing lingers once a node stops.
 */
export async function callJsonRpc(target: RpcTarget, call: RpcCall, timeoutMs = 5000): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params });
  const { status, text } = await post(new URL(call.path ?? '/', target.url).href, target.authorization, body, timeoutMs);
  let answer: { result?: unknown; error?: { message?: string; code?: unknown } | null };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new NodeAnswerError(`${call.method}: HTTP ${status} without a JSON-RPC answer`, status, undefined, text.includes('Work queue depth exceeded'));
  }
  if (answer.error) {
    const code = typeof answer.error.code === 'number' ? answer.error.code : undefined;
    throw new NodeAnswerError(`${call.method}: ${answer.error.message ?? JSON.stringify(answer.error)}`, status, code);
  }
  return answer.result;
}

function post(url: string, authorization: string, body: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent: false, timeout: timeoutMs, headers: { authorization, 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
