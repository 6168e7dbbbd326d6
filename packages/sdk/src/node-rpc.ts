import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { apiErrorFromAnswer, NodeRpcError, UnreachableError } from './errors';
import { basicAuthorization } from './encoding';
import type { Credentials } from './http';

// Calls to a hosted node through the node-proxy: JSON-RPC, and the management API of validator
// nodes. These use node:https rather than fetch because fetch can take neither a CA to trust (a
// dev proxy's self-signed certificate) nor a resolver for `*.localhost` per call.

export interface NodeEndpoint {
  /** The node's host name at the proxy: `<id>.<NODE_DOMAIN>`. */
  address: string;
  port: number;
}

export interface NodeCallOptions {
  /** PEM of the CA(s) to trust for the proxy, instead of the system's. */
  ca?: string | Buffer;
  /** `http` when the proxy runs with PROXY_TLS=off; default `https`. */
  scheme?: 'http' | 'https';
  /**
   * Ports to connect to instead of the ones a node record gives (8332, 9650, ...), when the proxy
   * is reached through port-forwards (`kubectl port-forward`) or listens elsewhere (tests).
   */
  portMap?: Record<number, number>;
  timeoutMs?: number;
}

interface NodeAnswer {
  status: number;
  body: unknown;
}

/**
 * Resolves like the system, except that `*.localhost` is loopback (RFC 6761), as curl and
 * browsers have it: a dev platform's nodes are `<id>.nodes.localhost`.
 */
function lookup(hostname: string, options: LookupOneOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if ((options as { all?: boolean }).all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
    return;
  }
  dnsLookup(hostname, options, callback);
}

function authorization(credentials: Credentials): string {
  if ('bearer' in credentials) return `Bearer ${credentials.bearer}`;
  return basicAuthorization(credentials.basic.user, credentials.basic.password);
}

/** One HTTP exchange with a node through the proxy; the body parsed as JSON. */
export function callNodeHttp(
  endpoint: NodeEndpoint,
  request: { method: 'GET' | 'POST'; path: string; body?: unknown; auth: Credentials },
  options: NodeCallOptions = {},
): Promise<NodeAnswer> {
  const scheme = options.scheme ?? 'https';
  const port = options.portMap?.[endpoint.port] ?? endpoint.port;
  const url = `${scheme}://${endpoint.address}:${port}${request.path}`;
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  const requestOptions: RequestOptions = {
    host: endpoint.address,
    port,
    method: request.method,
    path: request.path,
    lookup: lookup as RequestOptions['lookup'],
    headers: {
      authorization: authorization(request.auth),
      accept: 'application/json',
      ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
    },
    ...(options.ca ? { ca: options.ca } : {}),
    timeout: options.timeoutMs ?? 30_000,
  };
  return new Promise((resolve, reject) => {
    const req = (scheme === 'https' ? httpsRequest : httpRequest)(requestOptions, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // Not JSON: keep the text.
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', (error) => reject(new UnreachableError('node-proxy', url, error)));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${requestOptions.timeout} ms`)));
    req.on('error', (error) => reject(new UnreachableError('node-proxy', url, error)));
    req.end(payload);
  });
}

/** The proxy's own refusals (401, 404, ...) as the SDK's typed errors. */
function proxyError(answer: NodeAnswer): Error {
  const fallback = typeof answer.body === 'string' && answer.body ? answer.body : `HTTP ${answer.status}`;
  return apiErrorFromAnswer('node-proxy', answer.status, answer.body, fallback);
}

/**
 * A JSON-RPC call; its `result`, or NodeRpcError for an `error` answer (the node's, or the proxy's
 * refusal of a blocked method).
 */
export async function callNodeRpc(
  endpoint: NodeEndpoint & { path?: string },
  auth: Credentials,
  method: string,
  params: unknown[] | Record<string, unknown>,
  options: NodeCallOptions = {},
): Promise<unknown> {
  const answer = await callNodeHttp(endpoint, { method: 'POST', path: endpoint.path ?? '/', body: { jsonrpc: '2.0', id: 1, method, params }, auth }, options);
  const body = answer.body as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } | null } | undefined;
  // Bitcoin-family nodes answer RPC errors with 4xx/5xx and a JSON-RPC body: that body wins.
  if (body && typeof body === 'object' && body.error) {
    const { code, message, data } = body.error;
    throw new NodeRpcError(typeof code === 'number' ? code : -32603, typeof message === 'string' ? message : 'the node answered an error', data);
  }
  if (answer.status >= 400) throw proxyError(answer);
  if (!body || typeof body !== 'object' || !('result' in body)) throw new NodeRpcError(-32603, 'the node answered something that is not JSON-RPC');
  return body.result;
}

/** A GET of a node's management API (validators: `/status`, `/logs?lines=N`). */
export async function getNodeManagement(endpoint: NodeEndpoint, path: string, auth: Credentials, options: NodeCallOptions = {}): Promise<unknown> {
  const answer = await callNodeHttp(endpoint, { method: 'GET', path, auth }, options);
  if (answer.status >= 400) throw proxyError(answer);
  return answer.body;
}
