import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { NodeProxy } from '../src';
import type { ListenerName } from '../src/routing/interfaces';

export interface ProxyAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: unknown;
  /** The body as it came. */
  text: string;
}

export interface ProxyCall {
  /** The node address (Host and TLS name); `127.0.0.1` for a call by IP. */
  host: string;
  method?: string;
  path?: string;
  /** A string or bytes are sent as they are; anything else as JSON. */
  body?: unknown;
  /** `user:password` for Basic, or a full Authorization header value. */
  auth?: string;
  headers?: Record<string, string>;
  /** The TLS server name, when it should differ from `host`. */
  servername?: string;
  /** The loopback address to call from (any of 127.0.0.0/8 on Linux): what the proxy sees as the peer. */
  localAddress?: string;
  /** Gives up (rejects) when the socket is idle this long. */
  timeoutMs?: number;
}

/** One HTTP(S) call to a proxy listener on loopback, with the Host (and SNI) of `call.host`, trusting the proxy's certificate. */
export function callProxy(proxy: Pick<NodeProxy, 'ports' | 'scheme' | 'certificate'>, listener: ListenerName, call: ProxyCall): Promise<ProxyAnswer> {
  const port = proxy.ports[listener];
  const body = call.body === undefined ? undefined : typeof call.body === 'string' || Buffer.isBuffer(call.body) ? call.body : JSON.stringify(call.body);
  const authorization = call.auth === undefined ? undefined : /^(Basic|Bearer) /.test(call.auth) ? call.auth : basic(call.auth);
  const options = {
    host: '127.0.0.1',
    port,
    method: call.method ?? (body === undefined ? 'GET' : 'POST'),
    path: call.path ?? '/',
    ...(call.localAddress ? { localAddress: call.localAddress } : {}),
    headers: {
      host: `${call.host}:${port}`,
      ...(authorization ? { authorization } : {}),
      // Content-Length always: Node's client would send a GET's body without one, as curl never does.
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
      ...call.headers,
    },
    ...(proxy.scheme === 'https' ? { ca: proxy.certificate, servername: call.servername ?? (/^[\d.]+$/.test(call.host) ? undefined : call.host) } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (proxy.scheme === 'https' ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the text it is
        }
        resolve({ status: res.statusCode!, headers: res.headers, body: parsed, text });
      });
    });
    req.on('error', reject);
    if (call.timeoutMs) req.setTimeout(call.timeoutMs, () => req.destroy(new Error(`no answer within ${call.timeoutMs} ms`)));
    req.end(body);
  });
}

export function basic(credentials: string): string {
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** The proxy's refusal of a method outside the platform's policy, as the error of a JSON-RPC answer. */
export function platformRefusal(method: string) {
  return {
    code: -32601,
    message: `method "${method}" is not allowed on this hosted node`,
    data: { refusedBy: 'platform', method, message: `the method "${method}" does not exist/is not available on this hosted node` },
  };
}
