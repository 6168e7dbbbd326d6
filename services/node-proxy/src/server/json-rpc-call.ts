import type { IncomingMessage, ServerResponse } from 'node:http';
import { policyFor } from '../access/access-rules';
import { checkRequest, mergedBatchText, parseNodeBatchAnswer, serialise } from '../json-rpc/json-rpc';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { readBody } from './read-body';
import { takeRate } from './rate-limiter';
import { recordRefusals, refusedOutcome } from './refusals';
import { sendJsonText } from './responses';
import { countAnsweredCalls, countRateLimitedCalls, countRefusedCalls } from '../usage/json-rpc-usage';
import { NodeErrorScan } from '../usage/node-error-scan';
import { mayBeUnavailable, unavailableAnswer } from '../json-rpc/node-unavailable';
import type { UsageKey } from '../usage/usage-meter';

/**
 * A JSON-RPC request (POST to `path`, `/` but for avalanchego's per-API paths): checked call by
 * call, and what may pass is forwarded to the same path as the proxy re-serialised it. With nothing
 * refused the node's answer streams back untouched; a batch with refused calls gets the node's
 * answers and the refusals merged in the request's order. A batch costs one rate token per call:
 * the request took one already, the rest are taken together here, or the whole batch gets 429.
 */
export async function forwardJsonRpc(context: ProxyContext, listener: ListenerName, route: Route, caller: UsageKey, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { config, filters, upstreams, metrics, usage } = context;
  const body = await readBody(req, config.PROXY_BODY_LIMIT_BYTES);
  const bytesIn = Buffer.byteLength(body);
  const policy = policyFor(filters[route.interfaces.family].forNode(route.dev), route.rules);
  const checked = checkRequest(body, policy, config.PROXY_MAX_BATCH, config.PROXY_MAX_JSON_DEPTH);
  if (checked.outcome === 'forward' && checked.batch) {
    try {
      takeRate(context, route, checked.answers.length, 1);
    } catch (error) {
      countRateLimitedCalls(usage, caller, checked);
      throw error;
    }
  }
  recordRefusals(context, listener, checked);
  countRefusedCalls(usage, caller, checked);

  if (checked.outcome === 'refused') {
    const bytesOut = sendJsonText(res, checked.status, serialise(checked, checked.answer));
    metrics.count(listener, refusedOutcome(checked));
    usage.record(caller, { requests: 1, blocked: checked.refusedCount, bytesIn, bytesOut });
    return;
  }

  const forward = { method: 'POST', path, body: checked.body, headers: { 'content-type': 'application/json' } } as const;
  const { family } = route.interfaces;
  // The node busy or warming up: 503 + Retry-After with a JSON-RPC error, not its page or a bare 500.
  const review = { holds: (status: number) => mayBeUnavailable(family, status), replace: (status: number, text: Buffer) => unavailableAnswer(checked, policy.dialect, status, text) };
  const stopTimer = metrics.timeUpstream(listener);
  let bytesOut: number;
  if (checked.batch && checked.refusedCount > 0) {
    const answer = await upstreams.request(route, forward);
    stopTimer();
    const text = await answer.body.text();
    const unavailable = review.holds(answer.statusCode) ? review.replace(answer.statusCode, Buffer.from(text)) : undefined;
    const nodeAnswers = parseNodeBatchAnswer(unavailable ? '[]' : text);
    bytesOut = unavailable ? sendJsonText(res, unavailable.status, unavailable.text, unavailable.headers) : sendJsonText(res, 200, mergedBatchText(checked, nodeAnswers));
    const scan = new NodeErrorScan();
    scan.feed(Buffer.from(unavailable?.text ?? text));
    // Unavailable: no forwarded call was answered (a non-array answer counts every one as failed).
    countAnsweredCalls(usage, caller, checked, scan.errors, () => (unavailable ? null : nodeAnswers.value));
  } else {
    // A batch's chunks are kept to tell which calls the node's errors answer.
    const scan = new NodeErrorScan(checked.batch);
    bytesOut = await upstreams.streamTo(route, forward, res, scan, review);
    stopTimer();
    countAnsweredCalls(usage, caller, checked, scan.errors, () => scan.text());
  }
  metrics.count(listener, 'forwarded');
  usage.record(caller, { requests: 1, blocked: checked.refusedCount, bytesIn, bytesOut });
}
