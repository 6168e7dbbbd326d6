import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { apiErrorFromAnswer, NodeRpcError, UnreachableError } from './errors';
import { basicAuthorization } from './encoding';
import type { Credentials } from './http';

// Calls to a hosted node through the node-proxy: JSON-RPC, and the management API of validator
// nodes, at the URLs the node record prints (`endpoints`): https, or http where the platform says
// so (PROXY_TLS=off, the plain HTTP addresses for loopback clients). These use node:https rather
// than fetch because fetch can take no CA to trust per call (a dev proxy's self-signed certificate).

export interface NodeCallOptions {
  /** PEM of the CA(s) to trust for the proxy, instead of the system's. */
  ca?: string | Buffer;
  timeoutMs?: number;
}

interface NodeAnswer {
  status: number;
  body: unknown;
}

/**
 * Resolves like the system, except that `*.localhost` is loopback (RFC 6761), as curl and
 * browsers have it: a jwt node's address on a dev platform is its name, `<id>.nodes.localhost`.
 */
function lookup(
  hostname: string,
  options: LookupOneOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
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

/** One HTTP exchange with a node through the proxy at `url` (a URL token's has the token in it); the body parsed as JSON. */
export function callNodeHttp(
  url: string,
  request: { method: 'GET' | 'POST'; body?: unknown; auth?: Credentials },
  options: NodeCallOptions = {},
): Promise<NodeAnswer> {
  const target = new URL(url);
  const tls = target.protocol === 'https:';
  if (!tls && target.protocol !== 'http:') return Promise.reject(new TypeError(`${url} is not an http or https URL`));
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  const requestOptions: RequestOptions = {
    host: target.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: target.port || (tls ? 443 : 80),
    method: request.method,
    path: `${target.pathname}${target.search}`,
    lookup: lookup as RequestOptions['lookup'],
    headers: {
      ...(request.auth ? { authorization: authorization(request.auth) } : {}),
      accept: 'application/json',
      ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
    },
    ...(tls && options.ca ? { ca: options.ca } : {}),
    timeout: options.timeoutMs ?? 30_000,
  };
  // Errors name the URL without a URL token in it.
  const shown = redactToken(url);
  return new Promise((resolve, reject) => {
    const req = (tls ? httpsRequest : httpRequest)(requestOptions, (res) => {
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
      res.on('error', (error) => reject(new UnreachableError('node-proxy', shown, error)));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${requestOptions.timeout} ms`)));
    req.on('error', (error) => reject(new UnreachableError('node-proxy', shown, error)));
    req.end(payload);
  });
}

/** A URL with a URL token (`/nt_…`) shown as `/nt_…` only: for error messages. */
export function redactToken(url: string): string {
  return url.replace(/\/nt_[A-Za-z0-9_-]+/g, '/nt_…');
}

/** A node's base URL with a path: `https://127.0.0.1:9650/` + `/ext/info`, `…/<token>` + `/`. */
export function withPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
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
  url: string,
  auth: Credentials | undefined,
  method: string,
  params: unknown[] | Record<string, unknown>,
  options: NodeCallOptions = {},
): Promise<unknown> {
  const answer = await callNodeHttp(url, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method, params }, ...(auth ? { auth } : {}) }, options);
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
export async function getNodeManagement(url: string, auth: Credentials, options: NodeCallOptions = {}): Promise<unknown> {
  const answer = await callNodeHttp(url, { method: 'GET', auth }, options);
  if (answer.status >= 400) throw proxyError(answer);
  return answer.body;
}
