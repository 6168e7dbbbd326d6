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
import { clientAddress, LoginThrottle } from '../auth/login-throttle';
import { allowsAddress } from '../access/access-rules';
import { answerPreflight, applyCors, assertOrigin, varyOnOrigin } from '../access/cors';
import { takeRate } from './rate-limiter';
import { sendError } from './responses';
import { MANAGEMENT_BUCKET, UNREAD_BUCKET, type UsageKey } from '../usage/usage-meter';

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
  if (req.method === 'OPTIONS' && listener !== 'management' && preflight(context, listener, req, res)) return;
  const { route, caller } = await authorize(context, listener, req, res);
  if (listener === 'management') {
    const bytesOut = await serveManagement(context, route, req, res);
    context.metrics.count(listener, 'management');
    context.usage.record(caller, { requests: 1, bytesOut });
    context.usage.count(caller, MANAGEMENT_BUCKET, 'ok');
    return;
  }
  assertRunning(route);
  const path = (req.url ?? '/').split('?')[0]!;
  if (route.interfaces.family === 'avalanche') return serveAvalancheApi(context, listener, route, caller, path, req, res);
  if (path === '/') {
    if (req.method !== 'POST') throw new AppError(405, 'MethodNotAllowed', 'JSON-RPC takes POST /', { allow: 'POST' });
    return forwardJsonRpc(context, listener, route, caller, req, res, path);
  }
  if (route.interfaces.rest && path.startsWith('/rest/')) {
    if (req.method !== 'GET') throw new AppError(405, 'MethodNotAllowed', 'the REST interface takes GET only', { allow: 'GET' });
    return forwardRest(context, listener, route, caller, req, res);
  }
  if (route.interfaces.family === 'bitcoin' && (path === '/wallet' || path.startsWith('/wallet/'))) {
    throw new AppError(403, 'Forbidden', 'wallets are disabled on hosted nodes');
  }
  throw new AppError(404, 'NotFound', `nothing is served at ${path} on this node`);
}

/** A CORS preflight, answered before any credentials (browsers send none with it); false when the node has no CORS. */
function preflight(context: ProxyContext, listener: ListenerName, req: IncomingMessage, res: ServerResponse): boolean {
  const route = resolveNode(context, listener, req);
  varyOnOrigin(route.rules, res);
  admitAddress(context, route, req);
  if (!answerPreflight(route.rules, route, req, res)) return false;
  context.metrics.count(listener, 'preflight');
  return true;
}

/** Refuses a caller outside the node's IP allowlist (403), whatever credentials it presents. */
function admitAddress(context: ProxyContext, route: Route, req: IncomingMessage): string {
  const address = clientAddress(req, context.config.TRUST_PROXY);
  if (!allowsAddress(route.rules, address)) {
    context.usage.count(route, UNREAD_BUCKET, 'refused');
    throw new AppError(403, 'Forbidden', `node ${route.nodeId} takes no calls from ${address}`);
  }
  return address;
}

/** Who was let in: the node, the client address, and whose usage the call is (with the credential it presented, if any). */
export interface Authorized {
  route: Route;
  address: string;
  caller: UsageKey;
}

/**
 * The node named by the request, once its owner's rules let the caller's address and Origin in
 * (403 otherwise, before credentials are looked at), the caller is let in, and the node's rate
 * allows the call. With `res`, an allowed Origin's CORS headers are set on the answer.
 * An address that sent too many wrong credentials for the node gets 429 until its window ends,
 * unless it presents credentials verified before (its owner behind the same address).
 */
export async function authorize(context: ProxyContext, listener: ListenerName, req: IncomingMessage, res?: ServerResponse): Promise<Authorized> {
  const route = resolveNode(context, listener, req);
  if (res && listener !== 'management') varyOnOrigin(route.rules, res);
  const address = admitAddress(context, route, req);
  if (listener !== 'management') {
    try {
      // A WebSocket upgrade (no `res`) has no CORS, but a page of another Origin is refused all the same.
      if (res) applyCors(route.rules, req, res);
      else assertOrigin(route.rules, req);
    } catch (error) {
      context.usage.count(route, UNREAD_BUCKET, 'refused');
      throw error;
    }
  }
  const authorization = req.headers.authorization;
  const throttled = LoginThrottle.key(route.nodeId, address);
  const wait = context.throttle.retryAfter(throttled);
  if (wait !== undefined && !context.auth.isKnown(route, authorization)) {
    context.usage.count(route, UNREAD_BUCKET, 'unauthorized');
    throw new AppError(429, 'TooManyFailedLogins', `too many wrong credentials for node ${route.nodeId} from this address; try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const result = await context.auth.check(route, authorization);
  if (!result.ok) {
    // A missing header is how many clients start (they send credentials once challenged): not a guess.
    if (authorization) context.throttle.fail(throttled);
    context.usage.count(route, UNREAD_BUCKET, 'unauthorized');
    throw new AppError(401, 'Unauthorized', result.reason, { 'www-authenticate': context.auth.challenge(route) });
  }
  // A client access token is the owner's own: its calls are the node's, under no credential.
  const caller: UsageKey = result.credentialId === undefined ? route : { nodeId: route.nodeId, userId: route.userId, credentialId: result.credentialId };
  try {
    takeRate(context, route);
  } catch (error) {
    context.usage.count(caller, UNREAD_BUCKET, 'rate_limited');
    throw error;
  }
  return { route, address, caller };
}

const OUTCOME_OF_STATUS: Record<number, Outcome> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 413: 'too_large', 429: 'rate_limited', 502: 'upstream_unreachable', 503: 'not_ready', 504: 'upstream_timeout' };
/** Refusals that share a status with others but are worth telling apart. */
const OUTCOME_OF_CODE: Record<string, Outcome> = { TooManyFailedLogins: 'login_throttled', TooManyWebSockets: 'too_many_websockets', AnswerTooLarge: 'too_large' };

/** The metrics outcome of an error answer. */
export function outcomeOf(status: number, code: string): Outcome {
  return OUTCOME_OF_CODE[code] ?? OUTCOME_OF_STATUS[status] ?? 'bad_request';
}

function answerError(context: ProxyContext, listener: ListenerName, res: ServerResponse, error: unknown): void {
  let status = 500;
  let code = 'InternalError';
  let message = 'the proxy failed to handle the call';
  let headers: Record<string, string> = {};
  if (error instanceof AppError) {
    ({ status, code, message, headers } = error);
  } else if (error instanceof UpstreamError) {
    ({ status, message, code } = error);
  } else {
    context.logger.error('proxy call failed', { listener, error });
  }
  context.metrics.count(listener, outcomeOf(status, code));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, status, code, message, headers);
}
