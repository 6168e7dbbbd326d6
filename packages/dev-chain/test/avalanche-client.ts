/** The HTTP answer to a request made to an avalanche-mode node. */
export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  body: unknown;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), text, body };
}

/** POSTs a body (a string as is, anything else as JSON) to a path of the node. */
export async function postTo(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return answer(response);
}

export async function getFrom(url: string, path: string): Promise<Answer> {
  return answer(await fetch(`${url}${path}`));
}

/** A JSON-RPC 2.0 call: the whole reply body. */
export async function rpc(url: string, path: string, method: string, params?: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
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
