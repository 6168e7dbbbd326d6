import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ListenerName } from '../routing/interfaces';
import type { Route } from '../routing/route-table';
import type { ProxyContext } from './proxy-context';
import { REST_BUCKET, type UsageKey } from '../usage/usage-meter';

/** A read-only GET passed through as it is: a Bitcoin node's REST interface (`GET /rest/...`), avalanchego's health checks. */
export async function forwardRest(context: ProxyContext, listener: ListenerName, route: Route, caller: UsageKey, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const stopTimer = context.metrics.timeUpstream(listener);
  const bytesOut = await context.upstreams.streamTo(route, { method: 'GET', path: req.url!, headers: { accept: req.headers.accept ?? '*/*' } }, res);
  stopTimer();
  context.metrics.count(listener, 'forwarded');
  context.usage.record(caller, { requests: 1, bytesOut });
  context.usage.count(caller, REST_BUCKET, 'ok');
}
