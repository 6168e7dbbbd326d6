import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import { BodyTooLarge, readBody } from '../server';
import { cChainApi } from './c-chain';
import { devApi } from './dev';
import type { HealthReportKind } from './health';
import { healthApi, healthReport } from './health';
import { infoApi } from './info';
import type { JsonReply, JsonRpcApi } from './json-rpc';
import { answerJsonRpc, jsonReply } from './json-rpc';
import type { AvalancheNode } from './node';
import { platformApi } from './platform';

const TEXT = 'text/plain; charset=utf-8';
/** Go's http.NotFound, which avalanchego's router answers for a path it does not serve. */
const NOT_FOUND: JsonReply = { status: 404, body: '404 page not found\n', contentType: TEXT };

const HEALTH_PAGES: Record<string, HealthReportKind> = {
  '/ext/health': 'health',
  '/ext/health/health': 'health',
  '/ext/health/readiness': 'readiness',
  '/ext/health/liveness': 'liveness',
};

function send(res: ServerResponse, reply: JsonReply): void {
  if (reply.contentType) res.setHeader('Content-Type', reply.contentType);
  res.setHeader('Content-Length', reply.body === undefined ? 0 : Buffer.byteLength(reply.body));
  res.writeHead(reply.status).end(reply.body);
}

/** A POST to a JSON-RPC endpoint, checked as gorilla/rpc checks it: POST only, a JSON content type. */
async function answerPost(req: IncomingMessage, api: JsonRpcApi): Promise<JsonReply> {
  if (req.method !== 'POST') return { status: 405, body: `rpc: POST method required, received ${req.method}\n`, contentType: TEXT };
  const contentType = req.headers['content-type'] ?? '';
  if (contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') {
    return { status: 415, body: `rpc: unrecognized Content-Type: ${contentType}\n`, contentType: TEXT };
  }
  try {
    return answerJsonRpc(await readBody(req), api);
  } catch (error) {
    if (error instanceof BodyTooLarge) return { status: 413, body: 'request body too large\n', contentType: TEXT };
    throw error;
  }
}

/**
 * avalanchego's HTTP API for one node: `/ext/info`, `/ext/health` (GET pages and JSON-RPC),
 * `/ext/bc/P`, `/ext/bc/C/rpc`, and the dev chain's own `/ext/dev`. No authentication: like
 * avalanchego it ignores any Authorization header.
 */
export function createAvalancheServer(node: AvalancheNode): Server {
  const apis: Record<string, JsonRpcApi> = {
    '/ext/info': infoApi(node),
    '/ext/health': healthApi(node),
    '/ext/bc/P': platformApi(node),
    '/ext/bc/C/rpc': cChainApi(node),
    '/ext/dev': devApi(node),
  };
  const answer = async (req: IncomingMessage): Promise<JsonReply> => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const page = HEALTH_PAGES[path];
    if (page && (req.method === 'GET' || req.method === 'HEAD')) return jsonReply(200, healthReport(node, page));
    const api = Object.hasOwn(apis, path) ? apis[path] : undefined;
    if (api) return answerPost(req, api);
    return page ? { status: 405, body: 'method not allowed\n', contentType: TEXT } : NOT_FOUND;
  };
  return createServer((req, res) => {
    answer(req).then(
      (reply) => send(res, reply),
      // Only a broken request gets here (the client went away mid-body): nothing to answer.
      (error: unknown) => res.destroy(error instanceof Error ? error : undefined),
    );
  });
}
