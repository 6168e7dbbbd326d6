import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../routing/route-table';
import type { CallRecord } from './call-record';
import type { ProxyContext } from './proxy-context';
import { REST_BUCKET } from '../usage/usage-meter';
import type { AnswerReview } from '../forwarding/answer-writer';
import { forwardViaPool } from '../pools/pool-forward';

/**
 * A read-only GET passed through as it is: a Bitcoin node's REST interface (`GET /rest/...`),
 * avalanchego's health checks. On a pool, to a member, retried once on another as a JSON-RPC read is.
 */
export async function forwardRest(context: ProxyContext, route: Route, record: CallRecord, req: IncomingMessage, res: ServerResponse): Promise<void> {
  record.forwarding();
  const request = { method: 'GET', path: req.url!, headers: { accept: req.headers.accept ?? '*/*' } } as const;
  const forwardTo = (target: Route, review?: AnswerReview) => context.upstreams.streamTo(target, request, res, undefined, review);
  let bytesOut: number;
  try {
    bytesOut = route.pool ? await forwardViaPool(context, route, record, res, { write: false, calls: 1 }, forwardTo) : await forwardTo(route);
  } finally {
    record.answered();
  }
  record.outcome = 'forwarded';
  record.served = { blocked: 0, bytesIn: 0, bytesOut };
  record.calls.count(REST_BUCKET, 'ok');
}
