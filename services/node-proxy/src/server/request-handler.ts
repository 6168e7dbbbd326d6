import type { IncomingMessage, ServerResponse } from 'node:http';
import { UpstreamError } from '../forwarding/upstreams';
import type { Outcome } from '../metrics';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import { serveAvalancheApi } from './avalanche-api';
import { forwardJsonRpc } from './json-rpc-call';
import { serveManagement } from './management';
import type { ProxyContext } from './proxy-context';
import { assertRunning, resolveNode } from './resolve-node';
import { forwardRest } from './rest-call';
import { AppError } from '@cloud/http';
import { sendError } from './responses';

/**
 * The handler of one listener's HTTP requests: find the node (Host/SNI), check the caller's
 * credentials and the node's rate, then serve the management interface, pass a REST GET through,
 * or check and forward a JSON-RPC call (at avalanchego's own paths for an avalanche node). Every
 * failure is answered with `{code, message}` JSON.
 */
export function requestHandler(context: ProxyContext, listener: ListenerName) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(context, listener, req, res).catch((error: unknown) => answerError(context, listener, res, error));
  };
}

async function handle(context: ProxyContext, listener: ListenerName, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = await authorize(context, listener, req);
  if (listener === 'management') {
    const bytesOut = await serveManagement(context, route, req, res);
    context.metrics.count(listener, 'management');
    context.usage.record(route.nodeId, route.userId, { requests: 1, bytesOut });
    return;
  }
  assertRunning(route);
  const path = (req.url ?? '/').split('?')[0]!;
  if (route.interfaces.family === 'avalanche') return serveAvalancheApi(context, listener, route, path, req, res);
  if (path === '/') {
    if (req.method !== 'POST') throw new AppError(405, 'MethodNotAllowed', 'JSON-RPC takes POST /', { allow: 'POST' });
    return forwardJsonRpc(context, listener, route, req, res, path);
  }
  if (route.interfaces.rest && path.startsWith('/rest/')) {
    if (req.method !== 'GET') throw new AppError(405, 'MethodNotAllowed', 'the REST interface takes GET only', { allow: 'GET' });
    return forwardRest(context, listener, route, req, res);
  }
  if (route.interfaces.family === 'bitcoin' && (path === '/wallet' || path.startsWith('/wallet/'))) {
    throw new AppError(403, 'Forbidden', 'wallets are disabled on hosted nodes');
  }
  throw new AppError(404, 'NotFound', `nothing is served at ${path} on this node`);
}

/** The node named by the request, once the caller is let in and the node's rate allows the call. */
export async function authorize(context: ProxyContext, listener: ListenerName, req: IncomingMessage): Promise<Route> {
  const route = resolveNode(context, listener, req);
  const result = await context.auth.check(route, req.headers.authorization);
  if (!result.ok) throw new AppError(401, 'Unauthorized', result.reason, { 'www-authenticate': context.auth.challenge(route) });
  const rate = context.limiter.take(route.nodeId);
  if (!rate.allowed) {
    throw new AppError(429, 'TooManyRequests', `over this node's rate of ${context.config.PROXY_RATE_PER_SECOND} calls per second`, {
      'retry-after': String(rate.retryAfterSeconds),
    });
  }
  return route;
}

const OUTCOME_OF_STATUS: Record<number, Outcome> = { 401: 'unauthorized', 404: 'not_found', 413: 'too_large', 429: 'rate_limited', 502: 'upstream_unreachable', 503: 'not_ready', 504: 'upstream_timeout' };

function answerError(context: ProxyContext, listener: ListenerName, res: ServerResponse, error: unknown): void {
  let status = 500;
  let code = 'InternalError';
  let message = 'the proxy failed to handle the call';
  let headers: Record<string, string> = {};
  if (error instanceof AppError) {
    ({ status, code, message, headers } = error);
  } else if (error instanceof UpstreamError) {
    ({ status, message } = error);
    code = error.status === 504 ? 'GatewayTimeout' : 'BadGateway';
  } else {
    context.logger.error('proxy call failed', { listener, error });
  }
  context.metrics.count(listener, OUTCOME_OF_STATUS[status] ?? 'bad_request');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, status, code, message, headers);
}
