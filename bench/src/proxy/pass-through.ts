/**
 * Reference pass-through proxies, as a child process: `pass-through.js <kind> <upstream port>`.
 * They forward POST / to the upstream and stream its answer back, with none of the node-proxy's
 * work (no routing, authentication, filtering, metering), over keep-alive connections (at most
 * 32, as the node-proxy's pool). They show what the HTTP client alone costs:
 *
 * - `undici`: an undici Pool with `request()`, then the answer's body piped into the response
 *   with `stream/promises` `pipeline()`; the request body is read first, as the node-proxy must
 *   to filter it;
 * - `undici-stream`: the same Pool with `stream()`, which writes the answer straight into the
 *   response, as the node-proxy does;
 * - `node-http`: `node:http`'s own client (`http.request` with a keep-alive Agent), which is what
 *   http-proxy is built on; same body handling;
 * - `http-proxy`: the `http-proxy` package itself (`proxy.web`, streaming), if it is installed.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';
import { reportReady } from './child';

const CONNECTIONS = 32;

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function answerHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['content-type', 'content-length']) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}

function undiciHandler(origin: string): { handle: Handler; close: () => Promise<void> } {
  const pool = new Pool(origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  return {
    handle: async (req, res) => {
      const body = await readBody(req);
      const answer = await pool.request({ method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.statusCode, answerHeaders(answer.headers));
      await pipeline(answer.body, res);
    },
    close: () => pool.destroy(),
  };
}

/** The same with undici's `stream()`: the answer is written straight into the response, no Readable and no pipeline in between. */
function undiciStreamHandler(origin: string): { handle: Handler; close: () => Promise<void> } {
  const pool = new Pool(origin, { connections: CONNECTIONS, keepAliveTimeout: 30_000 });
  return {
    handle: async (req, res) => {
      const body = await readBody(req);
      await pool.stream({ method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body }, ({ statusCode, headers }) => {
        res.writeHead(statusCode, answerHeaders(headers));
        return res;
      });
    },
    close: () => pool.destroy(),
  };
}

function nodeHttpHandler(port: number): { handle: Handler; close: () => Promise<void> } {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  return {
    handle: async (req, res) => {
      const body = await readBody(req);
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        const outgoing = httpRequest(
          { host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
          resolve,
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
      res.writeHead(answer.statusCode ?? 502, answerHeaders(answer.headers));
      await pipeline(answer, res);
    },
    close: async () => agent.destroy(),
  };
}

interface HttpProxyServer {
  web(req: IncomingMessage, res: ServerResponse, options: object, callback: (error: Error) => void): void;
  close(): void;
}

function httpProxyHandler(origin: string): { handle: Handler; close: () => Promise<void> } {
  const httpProxy = createRequire(__filename)('http-proxy') as { createProxyServer(options: object): HttpProxyServer };
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const proxy = httpProxy.createProxyServer({ target: origin, agent });
  return {
    handle: (req, res) =>
      new Promise<void>((resolve, reject) => {
        res.once('finish', resolve);
        proxy.web(req, res, {}, reject);
      }),
    close: async () => {
      proxy.close();
      agent.destroy();
    },
  };
}

function main(): void {
  const kind = process.argv[2];
  const port = Number(process.argv[3]);
  const origin = `http://127.0.0.1:${port}`;
  const handlers = {
    undici: () => undiciHandler(origin),
    'undici-stream': () => undiciStreamHandler(origin),
    'node-http': () => nodeHttpHandler(port),
    'http-proxy': () => httpProxyHandler(origin),
  };
  if (!kind || !Object.hasOwn(handlers, kind)) throw new Error(`usage: pass-through.js ${Object.keys(handlers).join('|')} <upstream port>`);
  const { handle, close } = handlers[kind as keyof typeof handlers]();
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    reportReady((server.address() as AddressInfo).port, async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await close();
    });
  });
}

main();
