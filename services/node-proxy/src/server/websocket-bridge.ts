import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { checkRequest, errorAnswer, idKey, LIMIT_EXCEEDED, mergedBatchText, serialise, type Call, type Checked } from '../json-rpc/json-rpc';
import { countRateLimitedCalls, countRefusedCalls } from '../usage/json-rpc-usage';
import type { UsageKey } from '../usage/usage-meter';
import { WebSocketCallUsage } from '../usage/websocket-usage';
import { parseJson, type ParsedJson } from '../json-rpc/json-text';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { nodeLimits, rateMessage } from './rate-limiter';
import { allowsAddress, policyFor } from '../access/access-rules';
import { bookCall, CallRecord } from './call-record';
import { admitAddress, authorize, outcomeOf } from './request-handler';
import { assertRunning, isAnswering, resolveNode } from './resolve-node';
import { limitInWords } from '../forwarding/answer-limit';
import { BridgeFlow } from './websocket-flow';
import { AppError } from '@cloud/http';
import { NoMemberError, POOL_MEMBER_HEADER } from '../pools/pool-forward';

const INTERNAL_ERROR = -32603;
/** What a caller over a node's WebSocket cap is told to wait, in seconds: sockets are long-lived. */
const WEBSOCKET_RETRY_SECONDS = 5;

/** A batch with refusals whose forwarded part the node has yet to answer; `ids` matches the answer. */
interface PendingBatch {
  batch: Extract<Checked, { batch: true }>;
  ids: string;
}

/** One caller's socket and what let it in, checked again for every message and every change of its node's route. */
interface Session {
  client: WebSocket;
  authorization: string | undefined;
  /** The client address it came from: the owner's IP allowlist may change while it is open. */
  address: string;
  upstream: string | null;
  /** On a pool: the member node the socket is bridged to (its upstream is `upstream`). */
  member: string | undefined;
  flow: BridgeFlow;
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
  /** The member chosen for a pool's upgrade, named in its 101 answer. */
  private readonly chosenMembers = new WeakMap<IncomingMessage, string>();

  constructor(
    private readonly context: ProxyContext,
    private readonly listener: ListenerName,
  ) {
    this.server = new WebSocketServer({ noServer: true, maxPayload: context.config.PROXY_BODY_LIMIT_BYTES });
    // Rotated credentials stop working at once on open sockets too. Checked once every listener of
    // the change has run (one drops the node's verified-credentials cache).
    // A member's change (stopped, moved, deleted) reaches the sockets of its pools too.
    context.table.onChange((nodeId) =>
      queueMicrotask(() => {
        this.recheckNode(nodeId);
        for (const poolId of context.table.poolsOf(nodeId)) this.recheckNode(poolId);
      }),
    );
    this.server.on('headers', (headers, req) => {
      const member = this.chosenMembers.get(req);
      if (member) headers.push(`${POOL_MEMBER_HEADER}: ${member}`);
    });
    // A client token is revoked or expires with no change to the route: an idle socket (which may
    // still be receiving subscription notifications) is checked again every second. The checks
    // hit the verified-token cache and the revocation set, so this costs no signature check.
    this.tokenSweep = setInterval(() => this.recheckTokenSessions(), TOKEN_RECHECK_MS).unref();
    context.metrics.measureWebSocketHeld(() => this.heldBytes());
  }

  /** The listener's `upgrade` handler. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node's HTTP server leaves an upgraded socket without an error handler: a caller resetting the
    // connection while it is checked or refused would otherwise crash the process.
    const onError = () => socket.destroy();
    socket.on('error', onError);
    const record = new CallRecord(this.listener);
    this.accept(req, socket, head, onError, record).catch((error: unknown) => {
      refuseUpgrade(this.context, record, socket, error);
      bookCall(this.context, record);
    });
  };

  close(): void {
    clearInterval(this.tokenSweep);
    for (const sessions of this.byNode.values()) for (const session of sessions) session.client.terminate();
    this.server.close();
  }

  /** Lets the upgrade in, or throws what refuses it (with its usage in `record`, booked once it is refused). */
  private async accept(req: IncomingMessage, socket: Duplex, head: Buffer, onError: () => void, record: CallRecord): Promise<void> {
    const route = resolveNode(this.context, this.listener, req);
    const address = admitAddress(this.context, route, req, record);
    const caller = await authorize(this.context, route, address, req, record);
    assertRunning(route);
    if (!route.interfaces.webSocket) throw new AppError(404, 'NotFound', `node ${route.nodeId} has no WebSocket interface`);
    // A socket holds one node's subscriptions and filters: on a pool it stays with the member chosen now.
    const member = route.pool ? this.context.members.choose(route) : undefined;
    if (route.pool && !member) throw new NoMemberError(route);
    if (member) this.chosenMembers.set(req, member.nodeId);
    if ((req.url ?? '/').split('?')[0] !== '/') throw new AppError(404, 'NotFound', 'the WebSocket is served at /');
    // Counted and tracked with no await in between, so simultaneous upgrades cannot pass the cap together.
    const cap = this.context.config.PROXY_WS_PER_NODE;
    if ((this.byNode.get(route.nodeId)?.size ?? 0) >= cap) {
      throw new AppError(429, 'TooManyWebSockets', `node ${route.nodeId} has ${cap} open WebSockets, the most it may have here; close one or try again later`, {
        'retry-after': String(WEBSOCKET_RETRY_SECONDS),
      });
    }
    this.server.handleUpgrade(req, socket, head, (client) => {
      socket.off('error', onError); // the WebSocket handles its socket's errors from here
      this.bridge(route, caller, client, req.headers.authorization, address, member);
    });
  }

  /**
   * The node's route for a session's next message, if the session's credentials still hold for it
   * (rotation, revocation, expiry) and the node still runs where the session is bridged to;
   * otherwise the session is closed.
   */
  private async currentRoute(nodeId: string, session: Session): Promise<Route | undefined> {
    const { table } = this.context;
    const route = table.get(nodeId);
    // On a pool, the member the socket is bridged to must still be in it, running where it was.
    const target = session.member === undefined ? route : route?.pool?.members.includes(session.member) ? table.get(session.member) : undefined;
    if (!route || !target || !isAnswering(target) || target.upstream !== session.upstream) {
      session.client.close(1001, session.member === undefined ? 'the node is no longer running here' : 'the pool member is no longer running here');
      return undefined;
    }
    const result = await this.context.auth.check(route, session.authorization).catch(() => ({ ok: false }));
    if (!result.ok) {
      session.client.close(1008, 'the credentials are no longer valid');
      return undefined;
    }
    if (!allowsAddress(route.rules, session.address)) {
      session.client.close(1008, 'this address may no longer call the node');
      return undefined;
    }
    return route;
  }

  /** What the bridge holds for all its connections. */
  private heldBytes(): number {
    let held = 0;
    for (const sessions of this.byNode.values()) for (const session of sessions) held += session.flow.held;
    return held;
  }

  private recheckNode(nodeId: string): void {
    for (const session of this.byNode.get(nodeId) ?? []) void this.currentRoute(nodeId, session);
  }

  private recheckTokenSessions(): void {
    for (const nodeId of this.byNode.keys()) if (this.context.table.get(nodeId)?.jwt) this.recheckNode(nodeId);
  }

  /** Bridges the caller's socket to the node's (on a pool, to `member`'s); `bridged` is what the caller called, whose rules apply. */
  private bridge(bridged: Route, caller: UsageKey, client: WebSocket, authorization: string | undefined, address: string, member?: Route): void {
    const { upstreams, filters, config, limiter, usage, metrics } = this.context;
    const nodeId = bridged.nodeId;
    const target = upstreams.webSocketTarget(member ?? bridged);
    // A node message over the node's answer bound ends the socket (ws fails it, 1009): the bound
    // in force when it opened, as the rest of a session's settings.
    const answerLimit = upstreams.answerLimit(bridged);
    const node = new WebSocket(target.url, { headers: { authorization: target.authorization }, maxPayload: answerLimit.bytes });
    const flow = new BridgeFlow(client, node, config.PROXY_WS_MAX_BUFFERED_BYTES, () => {
      metrics.webSocketOverflows.inc();
      node.terminate();
      // The close frame queues behind what the caller has not read; ws destroys the socket if the
      // closing handshake does not finish within its close timeout.
      client.close(1008, 'the client does not read its answers');
    });
    const session: Session = { client, authorization, address, upstream: (member ?? bridged).upstream, member: member?.nodeId, flow };
    const pending: PendingBatch[] = [];
    const waiting: string[] = [];
    const answers = new WebSocketCallUsage(usage, caller);
    this.track(nodeId, session, +1);

    // Until the node's socket opens, what goes to it waits here, counted like a message taken.
    const toNode = (text: string) => {
      if (node.readyState === WebSocket.OPEN) return flow.toNode(text);
      waiting.push(text);
      flow.taken(Buffer.byteLength(text));
    };
    node.on('open', () => {
      for (const text of waiting.splice(0)) {
        flow.toNode(text);
        flow.handed(Buffer.byteLength(text));
      }
    });
    const serve = async (text: string) => {
      // Each message is a call: its caller's credentials must hold now, as for an HTTP call.
      const route = await this.currentRoute(nodeId, session);
      if (!route || client.readyState !== WebSocket.OPEN) return;
      const record = new CallRecord(this.listener);
      record.caller = caller;
      const served = { blocked: 0, bytesIn: Buffer.byteLength(text), bytesOut: 0 };
      record.served = served;
      try {
        const checked = checkRequest(
          text,
          policyFor(filters[route.interfaces.family].forNode(route.dev), route.rules),
          config.PROXY_MAX_BATCH,
          config.PROXY_MAX_JSON_DEPTH,
        );
        // A batch costs one token per call, all at once or none, as over HTTP.
        const calls = checked.outcome === 'forward' && checked.batch ? checked.answers.length : 1;
        const limits = nodeLimits(this.context, route);
        if (!limiter.take(nodeId, calls, limits).allowed) {
          if (checked.outcome === 'forward') countRateLimitedCalls(record.calls, checked);
          else countRefusedCalls(record.calls, checked, 'rate_limited');
          const request = safeParse(text, config.PROXY_MAX_JSON_DEPTH);
          flow.toClient(serialise(checked, rateLimited(request, rateMessage(limits, calls))));
          return;
        }
        record.refusals(checked);
        served.blocked = checked.refusedCount;
        if (checked.outcome === 'refused') {
          flow.toClient(serialise(checked, checked.answer));
          return;
        }
        answers.forwarded(checked);
        if (member) record.member = { nodeId: member.nodeId, calls: checked.batch ? checked.forwarded.length : 1 };
        if (checked.batch && checked.refusedCount > 0) {
          const answered = checked.forwarded.filter(expectsAnswer);
          if (answered.length > 0) {
            pending.push({ batch: checked, ids: idsOf(answered) });
          } else {
            // Only notifications go on, and the node answers none: the refusals are the whole answer.
            flow.toClient(
              serialise(
                checked,
                checked.answers.filter((answer) => answer !== undefined),
              ),
            );
          }
        }
        toNode(checked.body);
      } finally {
        bookCall(this.context, record);
      }
    };
    // One message after the other, so the node gets them in the order they came.
    let queue = Promise.resolve();
    client.on('message', (data: RawData, isBinary: boolean) => {
      const text = isBinary ? '' : rawText(data);
      const bytes = Buffer.byteLength(text);
      flow.taken(bytes);
      queue = queue
        .then(() => serve(text))
        .catch((error: unknown) => {
          this.context.logger.error('WebSocket message failed', { nodeId, error });
          flow.toClient(JSON.stringify(errorAnswer({ jsonrpc: '2.0' }, INTERNAL_ERROR, 'the proxy failed to handle the message')));
        })
        // Served: answered, or handed to the node's socket (whose bytes count from there on).
        .then(() => flow.handed(bytes));
    });
    node.on('message', (data: RawData) => {
      let text = rawText(data);
      answers.answered(text);
      if (pending.length > 0 && text.startsWith('[')) {
        const answers = safeParse(text);
        const index = Array.isArray(answers?.value) ? pending.findIndex((batch) => batch.ids === idsOf(answers.value as Call[])) : -1;
        if (index >= 0) text = mergedBatchText(pending.splice(index, 1)[0]!.batch, answers!);
      }
      usage.record(caller, { bytesOut: Buffer.byteLength(text) });
      flow.toClient(text);
    });
    node.on('close', () => client.close(1001, 'the node closed the connection'));
    node.on('error', (error) => {
      if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
        return client.close(1009, `the node's answer is larger than ${limitInWords(answerLimit)}`);
      }
      this.context.logger.warn('node WebSocket failed', { nodeId, error });
      client.close(1011, 'the node cannot be reached');
    });
    client.on('close', () => {
      answers.closed();
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
function rateLimited(request: ParsedJson | undefined, message: string): unknown {
  const calls = request?.value;
  if (Array.isArray(calls) && calls.length > 0) return calls.map((call) => errorAnswer(call, LIMIT_EXCEEDED, message));
  return errorAnswer(calls, LIMIT_EXCEEDED, message);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

function safeParse(text: string, maxDepth?: number): ParsedJson | undefined {
  try {
    return parseJson(text, maxDepth);
  } catch {
    return undefined;
  }
}

/** The ids of a batch's calls (or answers), in a canonical form for matching the one to the other. */
function idsOf(calls: readonly unknown[]): string {
  return JSON.stringify(calls.map((call) => idKey((call as Call | null)?.id)).sort());
}

/** Answers a refused upgrade with a plain HTTP response carrying the usual `{code, message}`. */
function refuseUpgrade(context: ProxyContext, record: CallRecord, socket: Duplex, error: unknown): void {
  const known = error instanceof AppError;
  if (!known) context.logger.error('WebSocket upgrade failed', { error });
  const status = known ? error.status : 500;
  record.outcome = outcomeOf(status, known ? error.code : 'InternalError');
  const body = JSON.stringify(known ? { code: error.code, message: error.message } : { code: 'InternalError', message: 'the proxy failed to handle the call' });
  const headers = known
    ? Object.entries(error.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')
    : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers}connection: close\r\n\r\n${body}`,
  );
}
