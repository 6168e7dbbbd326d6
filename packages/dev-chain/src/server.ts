import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpReply } from './rpc';

export interface RpcReply extends HttpReply {
  /** Runs once the reply is sent; the connection is closed after it (the stop RPC). */
  afterSent?: () => void;
}

export interface ServerHandlers {
  isAuthorized(header: string | undefined): boolean;
  rpc(body: string): RpcReply;
  /** Absent without -rest. */
  rest?: (path: string, query: URLSearchParams) => HttpReply | undefined;
}

/** How long a wrong password waits for its 401, as in Core, to slow down guessing. */
const FAILED_AUTH_DELAY_MS = 250;

function send(res: ServerResponse, reply: RpcReply): void {
  if (reply.contentType) res.setHeader('Content-Type', reply.contentType);
  if (reply.afterSent) {
    res.setHeader('Connection', 'close');
    res.on('finish', reply.afterSent);
  }
  if (reply.status !== 204) res.setHeader('Content-Length', reply.body === undefined ? 0 : Buffer.byteLength(reply.body));
  res.writeHead(reply.status).end(reply.body);
}

/** Core's limit on a request (MAX_SIZE, 32 MiB): a larger body is refused with 413, not buffered. */
export const MAX_BODY_BYTES = 0x02000000;

export class BodyTooLarge extends Error {}

/** Reads a request's body; throws BodyTooLarge past MAX_BODY_BYTES. */
export async function readBody(req: IncomingMessage): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Core's RPC endpoint: `/` and, as with a wallet-enabled build, `/wallet/<name>`. POST only, then HTTP Basic. */
async function answerRpc(req: IncomingMessage, handlers: ServerHandlers): Promise<RpcReply> {
  if (req.method !== 'POST') return { status: 405, body: 'JSONRPC server handles only POST requests', contentType: 'text/html; charset=ISO-8859-1' };
  const header = req.headers.authorization;
  if (!header || !handlers.isAuthorized(header)) {
    if (header) await sleep(FAILED_AUTH_DELAY_MS);
    return { status: 401 };
  }
  try {
    return handlers.rpc(await readBody(req));
  } catch (error) {
    if (error instanceof BodyTooLarge) return { status: 413, afterSent: () => req.destroy() };
    throw error;
  }
}

async function answer(req: IncomingMessage, res: ServerResponse, handlers: ServerHandlers): Promise<void> {
  const [path = '', query = ''] = (req.url ?? '').split(/\?(.*)/s);
  let reply: RpcReply | undefined;
  if (path === '/' || path.startsWith('/wallet/')) {
    reply = await answerRpc(req, handlers);
    if (reply.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="jsonrpc"');
  } else if (path.startsWith('/rest/')) {
    reply = handlers.rest?.(path, new URLSearchParams(query));
  }
  // Anything else, like a path with no handler in Core, is an empty 404.
  send(res, reply ?? { status: 404 });
}

export function createRpcServer(handlers: ServerHandlers): Server {
  return createServer((req, res) => {
    answer(req, res, handlers).catch((error: unknown) => {
      // Only a broken request gets here (e.g. the client went away mid-body): nothing to answer.
      res.destroy(error instanceof Error ? error : undefined);
    });
  });
}

/** Starts listening; resolves to the port (the free one picked for port 0). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePort((server.address() as AddressInfo).port);
    });
  });
}
