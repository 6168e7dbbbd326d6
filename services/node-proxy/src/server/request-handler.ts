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
import { bookCall, CallRecord } from './call-record';
import { takeRate } from './rate-limiter';
import { sendError } from './responses';
import { MANAGEMENT_BUCKET, UNREAD_BUCKET, type UsageKey } from '../usage/usage-meter';

/**
 * The handler of one listener's HTTP requests: find the node (Host/SNI), check the caller's
 * credentials and the node's rate, then serve the management interface, pass a REST GET through,
 * or check and forward a JSON-RPC call (at avalanchego's own paths for an avalanche node). Every
 * failure is answered with `{code, message}` JSON. What the request came to is booked once, at
 * its end.
 */
export function requestHandler(context: ProxyContext, listener: ListenerName) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const record = new CallRecord(listener);
    handle(context, record, req, res).then(
      () => bookCall(context, record),
      (error: unknown) => {
        answerError(context, record, res, error);
        bookCall(context, record);
      },
    );
  };
}

async function handle(context: ProxyContext, record: CallRecord, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { listener } = record;
  const route = resolveNode(context, listener, req);
  const address = admitAddress(context, route, req, record, res);
  // A CORS preflight is answered before any credentials (browsers send none with it), when the node has CORS.
  if (req.method === 'OPTIONS' && listener !== 'management' && answerPreflight(route.rules, route, req, res)) {
    record.outcome = 'preflight';
    return;
  }
  await authorize(context, route, address, req, record, res);
  if (listener === 'management') {
    const bytesOut = await serveManagement(context, route, req, res);
    record.calls.count(MANAGEMENT_BUCKET, 'ok');
    record.served = { blocked: 0, bytesIn: 0, bytesOut };
    record.outcome = 'management';
    return;
  }
  assertRunning(route);
  const path = (req.url ?? '/').split('?')[0]!;
  if (route.interfaces.family === 'avalanche') return serveAvalancheApi(context, route, record, path, req, res);
  if (path === '/') {
    if (req.method !== 'POST') throw new AppError(405, 'MethodNotAllowed', 'JSON-RPC takes POST /', { allow: 'POST' });
    return forwardJsonRpc(context, route, record, req, res, path);
  }
  if (route.interfaces.rest && path.startsWith('/rest/')) {
    if (req.method !== 'GET') throw new AppError(405, 'MethodNotAllowed', 'the REST interface takes GET only', { allow: 'GET' });
    return forwardRest(context, route, record, req, res);
  }
  if (route.interfaces.family === 'bitcoin' && (path === '/wallet' || path.startsWith('/wallet/'))) {
    throw new AppError(403, 'Forbidden', 'wallets are disabled on hosted nodes');
  }
  throw new AppError(404, 'NotFound', `nothing is served at ${path} on this node`);
}

/**
 * The client's address, once the node's owner's IP allowlist lets it in (403 otherwise, whatever
 * credentials it presents). From here on the request's usage is the node's. With `res` (not a
 * WebSocket upgrade), a node with origin rules says `Vary: Origin` on every answer.
 */
export function admitAddress(context: ProxyContext, route: Route, req: IncomingMessage, record: CallRecord, res?: ServerResponse): string {
  record.caller = route;
  if (res && record.listener !== 'management') varyOnOrigin(route.rules, res);
  const address = clientAddress(req, context.config.TRUST_PROXY);
  if (!allowsAddress(route.rules, address)) {
    record.calls.count(UNREAD_BUCKET, 'refused');
    throw new AppError(403, 'Forbidden', `node ${route.nodeId} takes no calls from ${address}`);
  }
  return address;
}

/**
 * Lets the caller of an admitted address in, once the owner's rules let its Origin in (403
 * otherwise, before credentials are looked at), its credentials hold, and the node's rate allows
 * the call; `record.caller` is then whose usage the request is (with the credential it presented,
 * if any). With `res`, an allowed Origin's CORS headers are set on the answer. An address that
 * sent too many wrong credentials for the node gets 429 until its window ends, unless it presents
 * credentials verified before (its owner behind the same address).
 */
export async function authorize(
  context: ProxyContext,
  route: Route,
  address: string,
  req: IncomingMessage,
  record: CallRecord,
  res?: ServerResponse,
): Promise<UsageKey> {
  if (record.listener !== 'management') {
    try {
      // A WebSocket upgrade (no `res`) has no CORS, but a page of another Origin is refused all the same.
      if (res) applyCors(route.rules, req, res);
      else assertOrigin(route.rules, req);
    } catch (error) {
      record.calls.count(UNREAD_BUCKET, 'refused');
      throw error;
    }
  }
  const authorization = req.headers.authorization;
  const throttled = LoginThrottle.key(route.nodeId, address);
  const wait = context.throttle.retryAfter(throttled);
  if (wait !== undefined && !context.auth.isKnown(route, authorization)) {
    record.calls.count(UNREAD_BUCKET, 'unauthorized');
    throw new AppError(429, 'TooManyFailedLogins', `too many wrong credentials for node ${route.nodeId} from this address; try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  }
  const result = await context.auth.check(route, authorization);
  if (!result.ok) {
    // A missing header is how many clients start (they send credentials once challenged): not a guess.
    if (authorization) context.throttle.fail(throttled);
    record.calls.count(UNREAD_BUCKET, 'unauthorized');
    throw new AppError(401, 'Unauthorized', result.reason, { 'www-authenticate': context.auth.challenge(route) });
  }
  // A client access token is the owner's own: its calls are the node's, under no credential.
  const caller: UsageKey = result.credentialId === undefined ? route : { nodeId: route.nodeId, userId: route.userId, credentialId: result.credentialId };
  record.caller = caller;
  try {
    takeRate(context, route);
  } catch (error) {
    record.calls.count(UNREAD_BUCKET, 'rate_limited');
    throw error;
  }
  return caller;
}

const OUTCOME_OF_STATUS: Record<number, Outcome> = {
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'too_large',
  429: 'rate_limited',
  502: 'upstream_unreachable',
  503: 'not_ready',
  504: 'upstream_timeout',
};
/** Refusals that share a status with others but are worth telling apart. */
const OUTCOME_OF_CODE: Record<string, Outcome> = {
  TooManyFailedLogins: 'login_throttled',
  TooManyWebSockets: 'too_many_websockets',
  AnswerTooLarge: 'too_large',
};

/** The metrics outcome of an error answer. */
export function outcomeOf(status: number, code: string): Outcome {
  return OUTCOME_OF_CODE[code] ?? OUTCOME_OF_STATUS[status] ?? 'bad_request';
}

/** Answers a request that failed with its error, and records its outcome. */
function answerError(context: ProxyContext, record: CallRecord, res: ServerResponse, error: unknown): void {
  let status = 500;
  let code = 'InternalError';
  let message = 'the proxy failed to handle the call';
  let headers: Record<string, string> = {};
  if (error instanceof AppError) {
    ({ status, code, message, headers } = error);
  } else if (error instanceof UpstreamError) {
    ({ status, message, code } = error);
  } else {
    context.logger.error('proxy call failed', { listener: record.listener, error });
  }
  record.outcome = outcomeOf(status, code);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(res, status, code, message, headers);
}
