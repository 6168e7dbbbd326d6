import { readHttpResult, type HttpResult } from './rpc-client';

/** POSTs a body (a string as is, anything else as JSON) to a path of the node. */
export async function postTo(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readHttpResult(response);
}

export async function getFrom(url: string, path: string): Promise<HttpResult> {
  return readHttpResult(await fetch(`${url}${path}`));
}

/** A JSON-RPC 2.0 call: the whole reply body. */
export async function rpc(
  url: string,
  path: string,
  method: string,
  params?: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const reply = await postTo(url, path, { jsonrpc: '2.0', id: 1, method, ...(params !== undefined && { params }) });
  if (reply.status !== 200) throw new Error(`${method}: HTTP ${reply.status}: ${reply.text}`);
  return reply.body as { result?: unknown; error?: { code: number; message: string } };
}

/** A JSON-RPC 2.0 call that must succeed: its result. */
export async function call<T = unknown>(url: string, path: string, method: string, params?: unknown): Promise<T> {
  const reply = await rpc(url, path, method, params);
  if (reply.error) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
}
