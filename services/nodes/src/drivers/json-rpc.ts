import http from 'node:http';
import type { InternalEndpoint } from './driver';

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

/**
 * Calls a node's JSON-RPC and returns its result; throws on a transport error, a timeout, an HTTP
 * error without a JSON-RPC answer, or a JSON-RPC error. One connection per call (no keep-alive),
 * so nothing lingers once a node stops.
 */
export async function callJsonRpc(target: RpcTarget, call: RpcCall, timeoutMs = 5000): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params });
  const { status, text } = await post(new URL(call.path ?? '/', target.url).href, target.authorization, body, timeoutMs);
  let answer: { result?: unknown; error?: { message?: string } | null };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new Error(`${call.method}: HTTP ${status} without a JSON-RPC answer`);
  }
  if (answer.error) throw new Error(`${call.method}: ${answer.error.message ?? JSON.stringify(answer.error)}`);
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
