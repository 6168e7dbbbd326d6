import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Route } from '../routing/route-table';
import type { CallRecord } from './call-record';
import type { ProxyContext } from './proxy-context';
import { REST_BUCKET } from '../usage/usage-meter';

/** A read-only GET passed through as it is: a Bitcoin node's REST interface (`GET /rest/...`), avalanchego's health checks. */
export async function forwardRest(context: ProxyContext, route: Route, record: CallRecord, req: IncomingMessage, res: ServerResponse): Promise<void> {
  record.forwarding();
  const bytesOut = await context.upstreams.streamTo(route, { method: 'GET', path: req.url!, headers: { accept: req.headers.accept ?? '*/*' } }, res);
  record.answered();
  record.outcome = 'forwarded';
  record.served = { blocked: 0, bytesIn: 0, bytesOut };
  record.calls.count(REST_BUCKET, 'ok');
}
