import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@cloud/http';
import type { Route } from '../routing/route-table';
import type { CallRecord } from './call-record';
import { forwardJsonRpc } from './json-rpc-call';
import type { ProxyContext } from './proxy-context';
import { forwardRest } from './rest-call';

type HttpMethod = 'GET' | 'POST';

/**
 * What an avalanche node serves through the proxy: avalanchego's JSON-RPC 2.0 APIs, each POSTed to
 * its own path and forwarded to the same path on the node, and the health API's GET checks. Every
 * other path is refused, the node-level and key-holding APIs first among them (/ext/admin,
 * /ext/keystore, /ext/ipcs, /ext/auth, /ext/metrics, the X-Chain's /ext/bc/X/wallet, the dev
 * chain's /ext/dev), and the WebSockets (/ext/bc/C/ws, /ext/bc/X/events) too. Sources: avalanchego
 * api/health/service.md (GET /ext/health, /health, /readiness, /liveness), indexer/service.md (the
 * /ext/index/... paths, X/vtx kept for history since Cortina), vms/avm/service.md,
 * vms/platformvm/service.md and coreth's handlers (/ext/bc/C/rpc, /ext/bc/C/avax).
 */
const AVALANCHE_PATHS: ReadonlyMap<string, readonly HttpMethod[]> = new Map([
  ['/ext/info', ['POST']],
  ['/ext/health', ['GET', 'POST']],
  ['/ext/health/health', ['GET']],
  ['/ext/health/liveness', ['GET']],
  ['/ext/health/readiness', ['GET']],
  ['/ext/bc/P', ['POST']],
  ['/ext/bc/X', ['POST']],
  ['/ext/bc/C/rpc', ['POST']],
  ['/ext/bc/C/avax', ['POST']],
  ['/ext/index/X/tx', ['POST']],
  ['/ext/index/X/vtx', ['POST']],
  ['/ext/index/X/block', ['POST']],
  ['/ext/index/P/block', ['POST']],
  ['/ext/index/C/block', ['POST']],
]);

/** The paths where the proxy takes JSON-RPC calls for an avalanche node. */
export const AVALANCHE_JSON_RPC_PATHS: readonly string[] = [...AVALANCHE_PATHS].filter(([, methods]) => methods.includes('POST')).map(([path]) => path);

const SERVED = [...AVALANCHE_PATHS].map(([path, methods]) => `${methods.join('|')} ${path}`).join(', ');

/**
 * How an avalanche node serves a request for `path`: a JSON-RPC POST, or a GET passed through; an
 * AppError (404 naming the path, 405) when it is not served.
 */
export function avalancheCallKind(path: string, method: string | undefined): 'json-rpc' | 'get' {
  const methods = AVALANCHE_PATHS.get(path);
  if (!methods) {
    const hint = path === '/' ? "avalanchego's APIs have paths of their own" : `nothing is served at ${path} on this node`;
    throw new AppError(404, 'NotFound', `${hint}; served: ${SERVED}`);
  }
  const allowed = methods.find((candidate) => candidate === method);
  if (!allowed) throw new AppError(405, 'MethodNotAllowed', `${path} takes ${methods.join(' or ')}`, { allow: methods.join(', ') });
  return allowed === 'GET' ? 'get' : 'json-rpc';
}

/**
 * A call to an avalanche node: a JSON-RPC POST checked like any other (parse, batch rules, limits,
 * `filters/avalanche.json`) and forwarded to the same path, or a health GET passed through.
 */
export function serveAvalancheApi(
  context: ProxyContext,
  route: Route,
  record: CallRecord,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (avalancheCallKind(path, req.method) === 'get') return forwardRest(context, route, record, req, res);
  return forwardJsonRpc(context, route, record, req, res, path);
}
