import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { policyFor } from '../access/access-rules';
import { answerBatchFromCache, answerCacheable, callsDevLayer } from '../cache/cached-call';
import { AnswerTooLargeError } from '../forwarding/answer-limit';
import type { AnswerReview } from '../forwarding/answer-writer';
import type { UpstreamRequest } from '../forwarding/upstreams';
import {
  answerForwardedCalls,
  checkRequest,
  errorAnswer,
  LIMIT_EXCEEDED,
  mergedBatchText,
  parseNodeBatchAnswer,
  serialise,
  type Call,
  type Checked,
  type Dialect,
  type Forwarded,
} from '../json-rpc/json-rpc';
import type { Route } from '../routing/route-table';
import { forwardViaPool, NoMemberError, type MemberAttempt } from '../pools/pool-forward';
import type { CallRecord } from './call-record';
import type { ProxyContext } from './proxy-context';
import { readBody } from './read-body';
import { takeRate } from './rate-limiter';
import { sendJsonText } from './responses';
import { countAnsweredCalls, countAnswerRefusedCalls, countRateLimitedCalls } from '../usage/json-rpc-usage';
import { NodeErrorScan } from '../usage/node-error-scan';
import { mayBeUnavailable, unavailableAnswer } from '../json-rpc/node-unavailable';

/**
 * A JSON-RPC request (POST to `path`, `/` but for avalanchego's per-API paths): checked call by
 * call, and what may pass is forwarded to the same path as the proxy re-serialised it. With nothing
 * refused the node's answer streams back untouched; a batch with refused calls gets the node's
 * answers and the refusals merged in the request's order. A batch costs one rate token per call:
 * the request took one already, the rest are taken together here, or the whole batch gets 429.
 * What it came to goes into `record`.
 */
export async function forwardJsonRpc(
  context: ProxyContext,
  route: Route,
  record: CallRecord,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const { config, filters } = context;
  const bytes = await readBody(req, config.PROXY_BODY_LIMIT_BYTES);
  const body = bytes.toString('utf8');
  const bytesIn = bytes.length;
  const policy = policyFor(filters[route.interfaces.family].forNode(route.dev), route.rules);
  const checked = checkRequest(body, policy, config.PROXY_MAX_BATCH, config.PROXY_MAX_JSON_DEPTH);
  if (checked.outcome === 'forward' && checked.batch) {
    try {
      takeRate(context, route, checked.answers.length, 1);
    } catch (error) {
      countRateLimitedCalls(record.calls, checked);
      throw error;
    }
  }
  record.refusals(checked);

  if (checked.outcome === 'refused') {
    const bytesOut = sendJsonText(res, checked.status, serialise(checked, checked.answer));
    record.outcome = refusedOutcome(checked);
    record.served = { blocked: checked.refusedCount, bytesIn, bytesOut };
    return;
  }

  const forward = { method: 'POST', path, body: forwardedBytes(checked, body, bytes), headers: { 'content-type': 'application/json' } } as const;
  const { family } = route.interfaces;
  // The node busy or warming up: 503 + Retry-After with a JSON-RPC error, not its page or a bare 500.
  const review = {
    holds: (status: number) => mayBeUnavailable(family, status),
    replace: (status: number, text: Buffer) => unavailableAnswer(checked, policy.dialect, status, text),
  };
  // The cache: after the policy, the access rules and the rate, as for any call; one Map lookup for a call it has no rule for.
  const { cache } = context;
  const single = checked.batch ? undefined : checked;
  const plan = cache && single ? cache.plan(route, single.call as Call & { method: string }, single.lossless === true) : undefined;
  if (cache && checked.batch && checked.refusedCount === 0) {
    const bytesOut = answerBatchFromCache({ context, cache, route, record, dialect: policy.dialect, res }, checked);
    if (bytesOut !== undefined) {
      record.outcome = 'cached';
      record.served = { blocked: 0, bytesIn, bytesOut };
      return;
    }
  }
  // A dev node's own mining or reverting: nothing kept of its chain, nor its head, is trusted until read again.
  const changesChain = cache !== undefined && route.dev === true && callsDevLayer(filters[family], checked);
  if (changesChain) cache.chainChanging(route);
  if (!plan) record.forwarding();
  let bytesOut: number;
  try {
    if (plan && cache && single) {
      // A miss goes to the node, or through the pool's member choice and failover as any call.
      const reach = (ask: MemberAttempt<number>) =>
        route.pool ? forwardViaPool(context, route, record, res, { write: writes(context, route, checked), calls: 1, review }, ask) : ask(route, review);
      bytesOut = await answerCacheable({ context, cache, route, record, checked: single, dialect: policy.dialect, forward, reach, res }, plan);
    } else {
      const forwardTo = (target: Route, targetReview: AnswerReview) => forwardChecked(context, target, record, checked, forward, res, targetReview);
      bytesOut = route.pool
        ? await forwardViaPool(context, route, record, res, { write: writes(context, route, checked), calls: forwardedCalls(checked), review }, forwardTo)
        : await forwardTo(route, review);
    }
  } catch (error) {
    if (error instanceof NoMemberError) {
      // Told in JSON-RPC too, in the pool's dialect, with the status and Retry-After of the error.
      const text = serialise(
        checked,
        answerForwardedCalls(checked, (call) => errorAnswer(call, LIMIT_EXCEEDED, error.message, { dialect: policy.dialect })),
      );
      countAnswerRefusedCalls(record.calls, checked);
      record.outcome = 'not_ready';
      record.served = { blocked: checked.refusedCount, bytesIn, bytesOut: sendJsonText(res, error.status, text, error.headers) };
      return;
    }
    if (!(error instanceof AnswerTooLargeError) || res.headersSent) throw error;
    // Told in JSON-RPC, in the node's dialect, to every call the node answered: as a refusal is.
    bytesOut = sendJsonText(res, 200, serialise(checked, answerTooLarge(checked, error, policy.dialect)));
    countAnswerRefusedCalls(record.calls, checked);
  } finally {
    if (!plan) record.answered();
    if (changesChain) cache.chainChanging(route);
  }
  record.outcome = record.cachedCalls > 0 ? 'cached' : 'forwarded';
  record.served = { blocked: checked.refusedCount, bytesIn, bytesOut };
}

/**
 * What goes to the node: the checked request as the proxy writes it, which is the caller's text
 * itself when that text was already JSON.stringify's writing of what was checked (`parseJson`'s
 * `canonical`); then the caller's bytes go as they came (no encoding), if they were UTF-8 to
 * begin with (decoding would have replaced what was not, and the node must not read it otherwise).
 */
function forwardedBytes(checked: Forwarded, text: string, bytes: Buffer): string | Buffer {
  return checked.body === text && isUtf8(bytes) ? bytes : checked.body;
}

/** Whether a request holds a call that writes (its group in the family's lists says `writes`): a pool never retries it once sent. */
function writes(context: ProxyContext, route: Route, checked: Forwarded): boolean {
  const policy = context.filters[route.interfaces.family];
  return checked.batch ? checked.methods.some((method) => policy.isWrite(method)) : policy.isWrite(checked.method);
}

/** The calls of a request that go to the node. */
function forwardedCalls(checked: Forwarded): number {
  return checked.batch ? checked.forwarded.length : 1;
}

/** What a request the proxy answered itself ended as: over a limit, unreadable, or refused calls. */
function refusedOutcome(checked: Checked & { outcome: 'refused' }): 'too_large' | 'bad_request' | 'refused_method' | 'unknown_method' {
  if (checked.status === 413) return 'too_large';
  if (checked.status === 400) return 'bad_request';
  return checked.unknown.length === checked.refusedCount ? 'unknown_method' : 'refused_method';
}

/**
 * Sends what passed the policy to the node and its answer to the caller, or `review`'s
 * replacement of it (the node busy or warming up); the bytes sent. The calls the node answered
 * are counted in `record`, as answered or failed.
 */
async function forwardChecked(
  context: ProxyContext,
  route: Route,
  record: CallRecord,
  checked: Forwarded,
  forward: UpstreamRequest,
  res: ServerResponse,
  review: AnswerReview,
): Promise<number> {
  const { upstreams } = context;
  let bytesOut: number;
  if (checked.batch && checked.refusedCount > 0) {
    const answer = await upstreams.requestText(route, forward);
    const text = answer.text;
    const held = review.holds(answer.statusCode);
    // A pool's member failing where another may take the call: no answer here, the call is retried.
    const refused = held ? review.refuse?.(answer.statusCode, Buffer.from(text)) : undefined;
    if (refused) throw refused;
    const unavailable = held ? review.replace(answer.statusCode, Buffer.from(text)) : undefined;
    const nodeAnswers = parseNodeBatchAnswer(unavailable ? '[]' : text);
    bytesOut = unavailable
      ? sendJsonText(res, unavailable.status, unavailable.text, unavailable.headers)
      : sendJsonText(res, 200, mergedBatchText(checked, nodeAnswers));
    const scan = new NodeErrorScan();
    scan.feed(Buffer.from(unavailable?.text ?? text));
    // Unavailable: no forwarded call was answered (a non-array answer counts every one as failed).
    countAnsweredCalls(record.calls, checked, scan.errors, () => (unavailable ? null : nodeAnswers.value));
  } else {
    // A batch's chunks are kept to tell which calls the node's errors answer.
    const scan = new NodeErrorScan(checked.batch);
    bytesOut = await upstreams.streamTo(route, forward, res, scan, review);
    countAnsweredCalls(record.calls, checked, scan.errors, () => scan.text());
  }
  return bytesOut;
}

/** The error answering each call the node answered too much for; a batch's refusals stay in place. */
function answerTooLarge(checked: Forwarded, error: AnswerTooLargeError, dialect: Dialect): unknown {
  const data = { refusedBy: error.limit.setBy, answerLimitBytes: error.limit.bytes, ...(error.size === undefined ? {} : { answerBytes: error.size }) };
  return answerForwardedCalls(checked, (call) => errorAnswer(call, LIMIT_EXCEEDED, error.message, { dialect, data }));
}
