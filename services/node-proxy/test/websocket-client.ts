import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import WebSocket, { type ClientOptions, type RawData } from 'ws';
import type { NodeProxy } from '../src';
import { waitUntil } from './harness';

/** Node addresses (`<nodeId>.nodes.localhost`) are this machine, whatever the system resolver thinks. */
export const lookup: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

/** A JSON-RPC message as a test reads it. */
export interface Message {
  id?: unknown;
  method?: string;
  params?: { subscription?: unknown; result?: { number?: unknown } };
  result?: unknown;
  error?: { code: number; message: string };
}

/** A `ws` client to a node's eth port, resolving every name to loopback and trusting the proxy's certificate. */
export function socketTo(
  proxy: NodeProxy,
  address: string,
  authorization?: string,
  port = proxy.ports.eth,
  path = '/',
  headers: Record<string, string> = {},
): WebSocket {
  const options: ClientOptions & { lookup: LookupFunction } = {
    lookup,
    headers: { ...headers, ...(authorization ? { authorization } : {}) },
    ...(proxy.certificate ? { ca: proxy.certificate } : {}),
  };
  return new WebSocket(`${proxy.scheme === 'https' ? 'wss' : 'ws'}://${address}:${port}${path}`, options);
}

/** Every message a socket receives, parsed and as text, and a way to wait for one. */
export function inbox(ws: WebSocket) {
  const messages: (Message | Message[])[] = [];
  const texts: string[] = [];
  ws.on('message', (data: RawData) => {
    texts.push(String(data));
    messages.push(JSON.parse(String(data)) as Message | Message[]);
  });
  return {
    messages,
    texts,
    async next<T extends Message | Message[]>(what: string, match: (message: Message | Message[]) => boolean): Promise<T> {
      let found: Message | Message[] | undefined;
      await waitUntil(what, () => (found = messages.find(match)), 15_000, 20);
      return found as T;
    },
  };
}

/** A socket once open, with its inbox and the close code it will end with. */
export async function openSocket(proxy: NodeProxy, address: string, authorization: string) {
  const ws = socketTo(proxy, address, authorization);
  const box = inbox(ws);
  const closed = once(ws, 'close').then(([code]) => code as number);
  await once(ws, 'open');
  return { ws, box, closed };
}

/** How an upgrade was refused: the HTTP status, headers and body the `ws` client saw. */
export function refusal(ws: WebSocket): Promise<{ status: number; headers: IncomingMessage['headers']; body: unknown }> {
  return new Promise((resolve, reject) => {
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('error', (error) => reject(error));
    ws.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
        ws.removeAllListeners('error');
        ws.on('error', () => undefined);
        ws.terminate();
      });
    });
  });
}
