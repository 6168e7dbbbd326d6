import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@cloud/http';
import type { Route } from '../routing/route-table';
import type { AccessRules } from './access-rules';

/** How long a browser may reuse a preflight's answer (seconds): rule changes reach it within this. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** What a page may send: the proxy reads nothing else from a request's headers. */
const ALLOWED_HEADERS = 'authorization, content-type';

/**
 * CORS for a node whose owner allows origins (`originAllowlist`); a node without such rules has
 * none, as before. Every answer of such a node says `Vary: Origin` (it depends on the Origin);
 * only an allowed Origin gets `Access-Control-*`; a request from another Origin is refused
 * (403) before its credentials are looked at, so a page elsewhere cannot even probe them. A
 * request with no Origin (curl, a server, a wallet) is not a browser's cross-origin call: the
 * IP allowlist, not this, keeps such callers out.
 */
export function applyCors(rules: AccessRules | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (!varyOnOrigin(rules, res)) return;
  assertOrigin(rules, req);
  const origin = req.headers.origin;
  if (origin === undefined) return;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', 'retry-after');
}

/** Says `Vary: Origin` on an answer of a node with origin rules (every answer, refusals too); true when it has them. */
export function varyOnOrigin(rules: AccessRules | undefined, res: ServerResponse): rules is AccessRules {
  if (!rules || rules.origins.size === 0) return false;
  res.setHeader('vary', 'Origin');
  return true;
}

/** Refuses (403) a request whose Origin the node's rules do not list; one with no Origin, or a node without origin rules, passes. */
export function assertOrigin(rules: AccessRules | undefined, req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin === undefined || !rules || rules.origins.size === 0 || rules.origins.has(origin)) return;
  throw new AppError(403, 'Forbidden', `the origin ${origin.slice(0, 256)} may not call this node`);
}

/**
 * Answers a preflight (OPTIONS) without credentials, which browsers never send with one: 204
 * with the methods the node's port serves, when `applyCors` let the Origin pass. False when the
 * node has no origin rules: the OPTIONS goes the way it always went (401 without credentials).
 */
export function answerPreflight(rules: AccessRules | undefined, route: Route, req: IncomingMessage, res: ServerResponse): boolean {
  if (!rules || rules.origins.size === 0) return false;
  applyCors(rules, req, res);
  if (req.headers.origin === undefined) throw new AppError(403, 'Forbidden', 'a preflight names its Origin');
  const methods = route.interfaces.rest || route.interfaces.family === 'avalanche' ? 'GET, POST' : 'POST';
  res.writeHead(204, {
    'access-control-allow-methods': methods,
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  });
  res.end();
  return true;
}
