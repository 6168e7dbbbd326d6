import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { checkRequest, errorAnswer, mergeBatchAnswers, type Call, type RpcErrorAnswer } from '../json-rpc/json-rpc';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { authorize } from './request-handler';
import { assertRunning } from './resolve-node';
import { AppError } from '@cloud/http';

/** JSON-RPC's "limit exceeded" code, as Ethereum clients know it. */
const RATE_LIMITED = -32005;

interface PendingBatch {
  answers: (RpcErrorAnswer | undefined)[];
  forwarded: Call[];
  ids: string;
}

/** One caller's socket and what let it in, checked again for every message and every change of its node's route. */
interface Session {
  client: WebSocket;
  authorization: string | undefined;
  upstream: string | null;
}

/** How often the sockets of jwt nodes are checked for a revoked or expired token. */
const TOKEN_RECHECK_MS = 1000;

/**
 * JSON-RPC over WebSocket (Ethereum nodes): the caller's socket is bridged to one of its own at the
 * node, and every message the caller sends is checked like an HTTP call (refusals answered by the
 * proxy, the rest re-serialised and forwarded). What the node sends — answers and subscription
 * notifications — passes through. Both sockets close when either side does or the node goes away.
 */
export class WebSocketBridge {
  private readonly server: WebSocketServer;
  private readonly byNode = new Map<string, Set<Session>>();
  private readonly tokenSweep: NodeJS.Timeout;

  constructor(
    private readonly context: ProxyContext,
    private readonly listener: ListenerName,
  ) {
    this.server = new WebSocketServer({ noServer: true, maxPayload: context.config.PROXY_BODY_LIMIT_BYTES });
    // Rotated credentials stop working at once on open sockets too. Checked once every listener of
    // the change has run (one drops the node's verified-credentials cache).
    context.table.onChange((nodeId) => queueMicrotask(() => this.recheckNode(nodeId)));
    // A client token is revoked or expires with no change to the route: an idle socket (which may
    // still be receiving subscription notifications) is checked again every second. The checks
    // hit the verified-token cache and the revocation set, so this costs no signature check.
    this.tokenSweep = setInterval(() => this.recheckTokenSessions(), TOKEN_RECHECK_MS).unref();
  }

  /** The listener's `upgrade` handler. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node's HTTP server leaves an upgraded socket without an error handler: a caller resetting the
    // connection while it is checked or refused would otherwise crash the process.
    const onError = () => socket.destroy();
    socket.on('error', onError);
    this.accept(req, socket, head, onError).catch((error: unknown) => refuseUpgrade(this.context, socket, error));
  };

  close(): void {
    clearInterval(this.tokenSweep);
    for (const sessions of this.byNode.values()) for (const session of sessions) session.client.terminate();
    this.server.close();
  }

  private async accept(req: IncomingMessage, socket: Duplex, head: Buffer, onError: () => void): Promise<void> {
    const route = await authorize(this.context, this.listener, req);
    assertRunning(route);
    if (!route.interfaces.webSocket) throw new AppError(404, 'NotFound', `node ${route.nodeId} has no WebSocket interface`);
    if ((req.url ?? '/').split('?')[0] !== '/') throw new AppError(404, 'NotFound', 'the WebSocket is served at /');
    this.server.handleUpgrade(req, socket, head, (client) => {
      socket.off('error', onError); // the WebSocket handles its socket's errors from here
      this.bridge(route, client, req.headers.authorization);
    });
  }

  /**
   * The node's route for a session's next message, if the session's credentials still hold for it
   * (rotation, revocation, expiry) and the node still runs where the session is bridged to;
   * otherwise the session is closed.
   */
  private async currentRoute(nodeId: string, session: Session): Promise<Route | undefined> {
    const route = this.context.table.get(nodeId);
    if (route?.state !== 'running' || route.upstream !== session.upstream) {
      session.client.close(1001, 'the node is no longer running here');
      return undefined;
    }
    const result = await this.context.auth.check(route, session.authorization).catch(() => ({ ok: false }));
    if (!result.ok) {
      session.client.close(1008, 'the credentials are no longer valid');
      return undefined;
    }
    return route;
  }

  private recheckNode(nodeId: string): void {
    for (const session of this.byNode.get(nodeId) ?? []) void this.currentRoute(nodeId, session);
  }

  private recheckTokenSessions(): void {
    for (const nodeId of this.byNode.keys()) if (this.context.table.get(nodeId)?.jwt) this.recheckNode(nodeId);
  }

  private bridge(bridged: Route, client: WebSocket, authorization: string | undefined): void {
    const { upstreams, filters, config, limiter, usage, metrics } = this.context;
    const nodeId = bridged.nodeId;
    const target = upstreams.webSocketTarget(bridged);
    const node = new WebSocket(target.url, { headers: { authorization: target.authorization }, maxPayload: 64 * 1024 * 1024 });
    const session: Session = { client, authorization, upstream: bridged.upstream };
    const pending: PendingBatch[] = [];
    const waiting: string[] = [];
    this.track(nodeId, session, +1);

    const toNode = (text: string) => (node.readyState === WebSocket.OPEN ? node.send(text) : waiting.push(text));
    node.on('open', () => waiting.splice(0).forEach((text) => node.send(text)));
    const serve = async (text: string) => {
      // Each message is a call: its caller's credentials must hold now, as for an HTTP call.
      const route = await this.currentRoute(nodeId, session);
      if (!route || client.readyState !== WebSocket.OPEN) return;
      usage.record(nodeId, route.userId, { requests: 1, bytesIn: Buffer.byteLength(text) });
      if (!limiter.take(nodeId).allowed) {
        client.send(JSON.stringify(rateLimited(safeParse(text), `over this node's rate of ${config.PROXY_RATE_PER_SECOND} calls per second`)));
        return;
      }
      const checked = checkRequest(text, filters[route.interfaces.family], config.PROXY_MAX_BATCH);
      if (checked.refusedCount > 0) {
        metrics.refusedCalls.inc({ listener: this.listener }, checked.refusedCount);
        usage.record(nodeId, route.userId, { blocked: checked.refusedCount });
      }
      if (checked.outcome === 'refused') {
        client.send(JSON.stringify(checked.answer));
        return;
      }
      if (checked.batch && checked.refusedCount > 0) {
        const answered = checked.forwarded.filter(expectsAnswer);
        if (answered.length > 0) {
          pending.push({ answers: checked.answers, forwarded: checked.forwarded, ids: idsOf(answered) });
        } else {
          // Only notifications go on, and the node answers none: the refusals are the whole answer.
          client.send(JSON.stringify(checked.answers.filter((answer) => answer !== undefined)));
        }
      }
      toNode(checked.body);
    };
    // One message after the other, so the node gets them in the order they came.
    let queue = Promise.resolve();
    client.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? '' : rawText(data);
      queue = queue
        .then(() => serve(text))
        .catch((error: unknown) => {
          this.context.logger.error('WebSocket message failed', { nodeId, error });
        });
    });
    node.on('message', (data: RawData) => {
      let text = rawText(data);
      if (pending.length > 0 && text.startsWith('[')) {
        const answers = safeParse(text);
        const index = Array.isArray(answers) ? pending.findIndex((batch) => batch.ids === idsOf(answers as Call[])) : -1;
        if (index >= 0) text = JSON.stringify(mergeBatchAnswers(pending[index]!.answers, pending.splice(index, 1)[0]!.forwarded, answers));
      }
      usage.record(nodeId, bridged.userId, { bytesOut: Buffer.byteLength(text) });
      client.send(text);
    });
    node.on('close', () => client.close(1001, 'the node closed the connection'));
    node.on('error', (error) => {
      this.context.logger.warn('node WebSocket failed', { nodeId, error });
      client.close(1011, 'the node cannot be reached');
    });
    client.on('close', () => {
      this.track(nodeId, session, -1);
      node.terminate();
    });
    client.on('error', () => node.terminate());
  }

  private track(nodeId: string, session: Session, change: 1 | -1): void {
    const sessions = this.byNode.get(nodeId) ?? new Set<Session>();
    if (change > 0) sessions.add(session);
    else sessions.delete(session);
    if (sessions.size === 0) this.byNode.delete(nodeId);
    else this.byNode.set(nodeId, sessions);
    this.context.metrics.webSockets.inc(change);
  }
}

/** Whether the node answers this call: it has an id (a notification has none). */
function expectsAnswer(call: Call): boolean {
  return Object.hasOwn(call, 'id');
}

/** The rate refusal; for a batch one per call, in order, so that every id gets its answer. */
function rateLimited(request: unknown, message: string): unknown {
  if (Array.isArray(request) && request.length > 0) return request.map((call) => errorAnswer(call, RATE_LIMITED, message));
  return errorAnswer(request, RATE_LIMITED, message);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The ids of a batch's calls (or answers), in a canonical form for matching the one to the other. */
function idsOf(calls: readonly unknown[]): string {
  return JSON.stringify(calls.map((call) => JSON.stringify((call as Call | null)?.id ?? null)).sort());
}

/** Answers a refused upgrade with a plain HTTP response carrying the usual `{code, message}`. */
function refuseUpgrade(context: ProxyContext, socket: Duplex, error: unknown): void {
  const known = error instanceof AppError;
  if (!known) context.logger.error('WebSocket upgrade failed', { error });
  const status = known ? error.status : 500;
  const body = JSON.stringify(known ? { code: error.code, message: error.message } : { code: 'InternalError', message: 'the proxy failed to handle the call' });
  const headers = known ? Object.entries(error.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') : '';
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`);
}
