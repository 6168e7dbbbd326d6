/**
 * The fast local JSON-RPC upstream, as a child process: a bare `node:http` server answering every
 * call with `eth_blockNumber`'s answer (`"0x10"`), one call or a batch (an array of answers in the
 * request's order). It ignores the Authorization header the proxy adds. About as cheap as a
 * JSON-RPC server can be in Node, so what the proxy adds is not hidden behind a slow node.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportReady } from './child';

interface Call {
  id?: unknown;
}

function answer(call: Call): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"result":"0x10"}`;
}

function reply(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST') {
    reply(res, 405, '{"error":"POST only"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      reply(res, 400, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}');
      return;
    }
    const body = Array.isArray(parsed) ? `[${(parsed as Call[]).map(answer).join(',')}]` : answer(parsed as Call);
    reply(res, 200, body);
  });
}

const server = createServer(handle);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  reportReady((server.address() as AddressInfo).port, async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
