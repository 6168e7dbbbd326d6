import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UpstreamRequest } from '../forwarding/upstreams';
import type { Family } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { isAnswering } from './resolve-node';
import { readBody } from './read-body';
import { AppError } from '@cloud/http';
import { sendJson } from './responses';

/**
 * A node's health as `GET /status` tells it (a JSON string):
 * - `healthy`: it runs and passed its family's probe just now;
 * - `syncing`: it answers but is still catching up with its network (or bootstrapping);
 * - `unreachable`: it should run but did not pass it (restarting, stuck, or not yet bootstrapped);
 * - `provisioning`: it is being set up;
 * - `stopped`: its owner stopped it (or it is stopping), its data kept;
 * - `failed`: the platform gave up running it (the nodes API says why).
 */
export type NodeHealth = 'healthy' | 'syncing' | 'unreachable' | 'provisioning' | 'stopped' | 'failed';

/** How the proxy asks a family's node whether it is healthy. */
interface HealthProbe {
  request: UpstreamRequest;
  isHealthy(statusCode: number, reply: unknown): boolean;
}

function jsonRpcProbe(call: Record<string, unknown>): HealthProbe {
  return {
    request: { method: 'POST', path: '/', body: JSON.stringify(call), headers: { 'content-type': 'application/json' } },
    isHealthy: (statusCode, reply) => statusCode === 200 && reply !== null && !(reply as { error?: unknown }).error,
  };
}

const PROBES: Record<Family, HealthProbe> = {
  bitcoin: jsonRpcProbe({ jsonrpc: '1.0', id: 'status', method: 'getblockcount', params: [] }),
  ethereum: jsonRpcProbe({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  // avalanchego's health API: 200 with `healthy: true` once its checks pass, 503 until then.
  avalanche: {
    request: { method: 'GET', path: '/ext/health' },
    isHealthy: (statusCode, reply) => statusCode === 200 && reply !== null && (reply as { healthy?: unknown }).healthy === true,
  },
};

/** `true` when the node runs on a private dev chain (regtest, anvil, the dev chain), not its image's network. */
export const DEV_CHAIN_HEADER = 'x-node-dev-chain';

/** Most log lines one call returns, when the caller asks for all of them. */
const MAX_LOG_LINES = 100_000;

/** The management interface of every node (spec 4.4): `GET /status` and `GET /logs`. */
export async function serveManagement(context: ProxyContext, route: Route, req: IncomingMessage, res: ServerResponse): Promise<number> {
  const path = new URL(req.url ?? '/', 'http://node').pathname;
  if (path !== '/status' && path !== '/logs') throw new AppError(404, 'NotFound', 'the management interface serves GET /status and GET /logs');
  if (req.method !== 'GET') throw new AppError(405, 'MethodNotAllowed', `${path} takes GET`, { allow: 'GET' });
  // The health string is the spec's; whether the node is on a private dev chain rides along.
  if (path === '/status') {
    const status = route.pool ? await poolHealth(context, route) : await health(context, route);
    return sendJson(res, 200, status, { [DEV_CHAIN_HEADER]: String(route.dev === true) });
  }
  if (route.pool) throw new AppError(404, 'NotFound', `pool ${route.nodeId} has no logs of its own: ask each member node for its /logs`);
  const lines = await requestedLines(context, req);
  try {
    const reply = await context.bus.request('nodes.logs', { nodeId: route.nodeId, ...(lines ? { lines } : { lines: MAX_LOG_LINES }) });
    return sendJson(res, 200, reply.lines);
  } catch (error) {
    context.logger.warn('could not read node logs', { nodeId: route.nodeId, error });
    throw new AppError(503, 'LogsUnavailable', 'the node logs cannot be read now; try again shortly', { 'retry-after': '5' });
  }
}

async function health(context: ProxyContext, route: Route): Promise<NodeHealth> {
  if (route.state === 'provisioning') return 'provisioning';
  if (route.state === 'stopping' || route.state === 'stopped') return 'stopped';
  if (!isAnswering(route)) return 'failed';
  const probe = PROBES[route.interfaces.family];
  try {
    const answer = await context.upstreams.requestText(route, probe.request);
    const reply = parsedOrNull(answer.text);
    // A syncing node that answers at all is syncing: avalanchego's health is 503 until bootstrapped.
    if (route.state === 'syncing') return 'syncing';
    return probe.isHealthy(answer.statusCode, reply) ? 'healthy' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

/** The order in which a pool's status takes its members' states when none may serve: the one nearest to serving. */
const HEALTH_RANK: readonly NodeHealth[] = ['healthy', 'syncing', 'unreachable', 'provisioning', 'stopped', 'failed'];

/**
 * A pool's health: `healthy` while a member may serve a call (running, within the pool's lag,
 * not benched), else the best of its members' own (`failed` with no member at all).
 */
async function poolHealth(context: ProxyContext, pool: Route): Promise<NodeHealth> {
  if (context.members.eligible(pool).length > 0) return 'healthy';
  let best: NodeHealth = 'failed';
  for (const id of pool.pool!.members) {
    const member = context.table.get(id);
    if (!member) continue;
    // Running but not eligible (benched, behind, head unknown) is not healthy as a pool member, whatever its probe says.
    const state = await health(context, member);
    const asMember = state === 'healthy' ? 'unreachable' : state;
    if (HEALTH_RANK.indexOf(asMember) < HEALTH_RANK.indexOf(best)) best = asMember;
  }
  return best;
}

/** `lines` from the query (`?lines=N`) or, as the spec has it, a JSON body `{"lines": N}`; undefined for the whole log. */
async function requestedLines(context: ProxyContext, req: IncomingMessage): Promise<number | undefined> {
  const query = new URL(req.url ?? '/', 'http://node').searchParams.get('lines');
  let value: unknown = query ?? undefined;
  const body = (await readBody(req, 1024)).toString('utf8').trim();
  if (value === undefined && body !== '') {
    try {
      value = (JSON.parse(body) as { lines?: unknown }).lines;
    } catch {
      throw new AppError(400, 'InvalidInput', 'the body must be JSON like {"lines": 100}');
    }
  }
  if (value === undefined || value === null) return undefined;
  const lines = Number(value);
  if (!Number.isInteger(lines) || lines < 1 || lines > MAX_LOG_LINES)
    throw new AppError(400, 'InvalidInput', `lines must be a whole number from 1 to ${MAX_LOG_LINES}`);
  return lines;
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
