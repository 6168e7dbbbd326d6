import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { parseBasic, URL_TOKEN_PATTERN, URL_TOKEN_SCHEME, urlTokenSha256 } from '../auth/authenticator';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { AppError } from '@cloud/http';

/** The node a Host (or SNI) names: `<nodeId>.<NODE_DOMAIN>`, any port and case; undefined for any other name. */
export function nodeIdOfHost(host: string | undefined, domain: string): string | undefined {
  if (!host) return undefined;
  const name = host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
  const suffix = `.${domain}`;
  if (!name.endsWith(suffix)) return undefined;
  const label = name.slice(0, -suffix.length);
  return /^[a-z0-9-]+$/.test(label) ? label : undefined;
}

/**
 * Takes a URL token (`/<token>`, `/<token>/rest/…`) off the request's path, so that nothing after
 * this (the node, an error message, a log line) sees it, and keeps it as the request's credentials.
 * Done once per request, before the node is looked up.
 */
export function takeUrlToken(req: IncomingMessage): void {
  const url = req.url ?? '/';
  const end = url.slice(1).search(/[/?]/) + 1 || url.length;
  const token = url.slice(1, end);
  if (!URL_TOKEN_PATTERN.test(token)) return;
  const rest = url.slice(end);
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
  req.headers.authorization = `${URL_TOKEN_SCHEME} ${token}`;
}

/**
 * The node a request is for, served on this listener and able to take calls, or the AppError
 * that answers it: 404 for an unknown, deleted or failed node or a node of another port, 401 for
 * a URL token or Basic user (on an address naming no node) that no node takes, 421 when the TLS
 * name and the Host disagree, 503 before the routing table loads.
 */
export function resolveNode(context: ProxyContext, listener: ListenerName, req: IncomingMessage): Route {
  const { table, config, sync } = context;
  takeUrlToken(req);
  const hostNodeId = nodeIdOfHost(req.headers.host, config.NODE_DOMAIN);
  const sni = (req.socket as Partial<TLSSocket>).servername;
  if (sni && hostNodeId !== undefined && nodeIdOfHost(sni, config.NODE_DOMAIN) !== hostNodeId) {
    throw new AppError(421, 'MisdirectedRequest', 'the TLS server name and the Host header name different nodes');
  }
  let route: Route | undefined;
  const urlToken = urlTokenSha256(req.headers.authorization ?? '');
  if (hostNodeId !== undefined) {
    route = table.get(hostNodeId);
  } else if (urlToken !== undefined) {
    // A URL token names its node: `https://127.0.0.1:8545/<token>` needs no Host name.
    route = table.byUrlToken(urlToken);
    // The token is the credential: one no node takes is a wrong credential (401), whatever it once was.
    if (!route && sync.loaded) throw unknownCredential('no node takes this token: it is wrong, or was rotated or deleted');
  } else if (config.PROXY_ROUTE_BY_NODE_USER) {
    // A client that cannot send the node's name (litecoin-cli -rpcconnect=<ip>) is served by its Basic user name.
    const user = parseBasic(req.headers.authorization ?? '')?.user;
    route = user === undefined ? undefined : table.byNodeUser(user);
    if (!route && user !== undefined && sync.loaded) throw unknownCredential('wrong node credentials');
    if (!route && sync.loaded) throw unknownCredential('node credentials are required: a Basic user and password, or a URL token (https://<address>/<token>)');
  }
  if (!route) {
    if (!sync.loaded) throw new AppError(503, 'NotReady', 'the proxy is still loading its routes; try again shortly', { 'retry-after': '1' });
    throw new AppError(404, 'NotFound', hostNodeId === undefined ? 'no node at this address' : `no node ${hostNodeId} at this address`);
  }
  if (listener !== 'management' && route.interfaces.listener !== listener) {
    const port = context.ports[route.interfaces.listener];
    throw new AppError(404, 'NotFound', `node ${route.nodeId} is not served on this port${port ? `; its JSON-RPC is on port ${port}` : ''}`);
  }
  return route;
}

/** 401 for credentials that name no node, asking for Basic ones as a node's own 401 does. */
function unknownCredential(message: string): AppError {
  return new AppError(401, 'Unauthorized', message, { 'www-authenticate': 'Basic realm="node", charset="UTF-8"' });
}

/**
 * Whether the node (or pool) takes calls now (running, or answering while it syncs): 503 while it
 * provisions or is stopped (its owner may start it), 404 once it failed.
 */
export function assertRunning(route: Route): void {
  if (route.state === 'provisioning') {
    throw new AppError(503, 'NodeNotReady', `node ${route.nodeId} is still being provisioned; try again shortly`, { 'retry-after': '5' });
  }
  if (route.state === 'stopping' || route.state === 'stopped') {
    throw new AppError(503, 'NodeStopped', `node ${route.nodeId} is ${route.state}; start it to call it again`);
  }
  // A pool routes to its members: whether one may serve is decided per call.
  if (!route.pool && !isAnswering(route)) throw new AppError(404, 'NotFound', `node ${route.nodeId} is not running (${route.state})`);
}

/** A running node, or a syncing one: both answer calls at their upstream. */
export function isAnswering(route: Route): route is Route & { upstream: string } {
  return (route.state === 'running' || route.state === 'syncing') && route.upstream !== null;
}
