import type { Checked } from '../json-rpc/json-rpc';
import type { ListenerName } from '../routing/interfaces';
import type { ProxyContext } from './proxy-context';

/** Longest method name a debug line repeats: a caller chooses it, up to the body limit. */
const LOGGED_NAME_LENGTH = 80;

/**
 * Counts a request's refused calls, and those refused as unknown apart, so operators see what
 * users ask for that neither list has (the names go to the debug log, never to a metric label).
 */
export function recordRefusals({ metrics, logger }: Pick<ProxyContext, 'metrics' | 'logger'>, listener: ListenerName, checked: Checked): void {
  if (checked.refusedCount === 0) return;
  metrics.refusedCalls.inc({ listener }, checked.refusedCount);
  if (checked.unknown.length === 0) return;
  metrics.unknownMethodCalls.inc({ listener }, checked.unknown.length);
  logger.debug('refused methods in neither list', { listener, methods: checked.unknown.map((name) => name.slice(0, LOGGED_NAME_LENGTH)) });
}

/** What a request the proxy answered itself ended as: over a limit, unreadable, or refused calls. */
export function refusedOutcome(checked: Checked & { outcome: 'refused' }): 'too_large' | 'bad_request' | 'refused_method' | 'unknown_method' {
  if (checked.status === 413) return 'too_large';
  if (checked.status === 400) return 'bad_request';
  return checked.unknown.length === checked.refusedCount ? 'unknown_method' : 'refused_method';
}
