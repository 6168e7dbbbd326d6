import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkRequest, mergeBatchAnswers, parseNodeBatchAnswer } from '../json-rpc/json-rpc';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { readBody } from './read-body';
import { sendJson } from './responses';

/**
 * A JSON-RPC request (POST to `path`, `/` but for avalanchego's per-API paths): checked call by
 * call, and what may pass is forwarded to the same path as the proxy re-serialised it. With nothing
 * refused the node's answer streams back untouched; a batch with refused calls gets the node's
 * answers and the refusals merged in the request's order.
 */
export async function forwardJsonRpc(context: ProxyContext, listener: ListenerName, route: Route, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { config, filters, upstreams, metrics, usage } = context;
  const body = await readBody(req, config.PROXY_BODY_LIMIT_BYTES);
  const bytesIn = Buffer.byteLength(body);
  const checked = checkRequest(body, filters[route.interfaces.family], config.PROXY_MAX_BATCH);
  if (checked.refusedCount > 0) metrics.refusedCalls.inc({ listener }, checked.refusedCount);

  if (checked.outcome === 'refused') {
    const bytesOut = sendJson(res, checked.status, checked.answer);
    metrics.count(listener, checked.status === 413 ? 'too_large' : checked.status === 400 ? 'bad_request' : 'refused_method');
    usage.record(route.nodeId, route.userId, { requests: 1, blocked: checked.refusedCount, bytesIn, bytesOut });
    return;
  }

  const forward = { method: 'POST', path, body: checked.body, headers: { 'content-type': 'application/json' } } as const;
  const stopTimer = metrics.timeUpstream(listener);
  let bytesOut: number;
  if (checked.batch && checked.refusedCount > 0) {
    const answer = await upstreams.request(route, forward);
    stopTimer();
    const nodeAnswers = parseNodeBatchAnswer(await answer.body.text());
    bytesOut = sendJson(res, 200, mergeBatchAnswers(checked.answers, checked.forwarded, nodeAnswers));
  } else {
    bytesOut = await upstreams.streamTo(route, forward, res);
    stopTimer();
  }
  metrics.count(listener, 'forwarded');
  usage.record(route.nodeId, route.userId, { requests: 1, blocked: checked.refusedCount, bytesIn, bytesOut });
}
