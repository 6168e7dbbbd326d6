/** A node's JSON-RPC, reached directly (past the proxy) with the login the proxy uses. */
export interface NodeEndpoint {
  url: string;
  authorization?: string;
}

/**
 * How to ask a node program whether it has a method without running it: arguments it cannot take
 * (too many for any Bitcoin Core call, an object where anvil wants a list, a string where
 * avalanchego wants an object), and how it says a method does not exist.
 */
export interface Probe {
  params: unknown;
  /** Whether it answers JSON-RPC batches (avalanchego does not). */
  batches: boolean;
  notFound(error: { code?: unknown; message?: unknown }): boolean;
}

const methodNotFound = (error: { code?: unknown }) => error.code === -32601;

export const PROBES = {
  bitcoin: { params: Array.from({ length: 20 }, () => 0), batches: true, notFound: methodNotFound },
  ethereum: { params: { driftProbe: [0] }, batches: true, notFound: methodNotFound },
  // gorilla/rpc (avalanchego) answers an unknown service or method with -32000 and these words.
  avalanche: { params: 'drift-probe', batches: false, notFound: (error) => methodNotFound(error) || /can't find (method|service)/.test(String(error.message)) },
} satisfies Record<string, Probe>;

// geth takes at most 1,000 calls in a batch (--rpc.batch-request-limit).
const BATCH = 1000;
const PARALLEL = 8;

interface Answer {
  id?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

/** The node's JSON answer; undefined when nothing is served at the path (404 without JSON, as avalanchego says it). */
async function post(endpoint: NodeEndpoint, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, endpoint.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(endpoint.authorization ? { authorization: endpoint.authorization } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    if (response.status === 404) return undefined;
    throw new Error(`POST ${path} answered ${response.status} with something other than JSON: ${text.slice(0, 200)}`);
  }
}

/** Whether the answer says the method exists; anything but a JSON-RPC answer stops the check. */
function served(method: string, answer: unknown, probe: Probe): boolean {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    throw new Error(`no JSON-RPC answer to ${method}: ${JSON.stringify(answer).slice(0, 200)}`);
  const { error } = answer as Answer;
  return !(error && probe.notFound(error));
}

/**
 * The candidates the node has as methods at `path`: each is called, and kept unless the node says
 * it has no such method. None at a path the node does not serve.
 */
export async function servedMethods(endpoint: NodeEndpoint, path: string, candidates: Iterable<string>, probe: Probe): Promise<Set<string>> {
  const names = [...candidates];
  const found = new Set<string>();
  if (probe.batches) {
    for (let from = 0; from < names.length; from += BATCH) {
      const batch = names.slice(from, from + BATCH).map((method, id) => ({ jsonrpc: '2.0', id, method, params: probe.params }));
      const answers = await post(endpoint, path, batch);
      if (answers === undefined) return found;
      if (!Array.isArray(answers) || answers.length !== batch.length)
        throw new Error(`a batch of ${batch.length} calls to ${path} got ${JSON.stringify(answers).slice(0, 200)}`);
      for (const answer of answers as Answer[]) {
        const method = batch[Number(answer.id)]?.method;
        if (method === undefined) throw new Error(`an answer with an id no call had: ${JSON.stringify(answer).slice(0, 200)}`);
        if (served(method, answer, probe)) found.add(method);
      }
    }
    return found;
  }
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const method = names[next++]!;
      const answer = await post(endpoint, path, { jsonrpc: '2.0', id: 1, method, params: probe.params });
      if (answer === undefined) next = names.length;
      else if (served(method, answer, probe)) found.add(method);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return found;
}
