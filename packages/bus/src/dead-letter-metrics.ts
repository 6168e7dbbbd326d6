import { Counter, Registry } from 'prom-client';
import type { Logger } from '@cloud/logging';

/** The bus's own metrics, for a service to serve with its others (the node-proxy's `/metrics`). */
export const busMetrics = new Registry();

const deadLettered = new Counter({
  name: 'bus_messages_dead_lettered_total',
  help: 'Messages put in a dead-letter queue, by queue (`npm run dead-letters` lists and replays them)',
  labelNames: ['queue'] as const,
  registers: [busMetrics],
});

/**
 * Records a message that has just been put in a dead-letter queue: a log line with its id and
 * why, and the counter. `queue` is the dead-letter queue's name without the installation's prefix
 * (`accounts.call-events.dead`), so the label set stays that of the queues.
 */
export function recordDeadLetter(logger: Logger, queue: string, messageId: string | undefined, reason: string): void {
  deadLettered.inc({ queue });
  logger.error('message put in the dead-letter queue', { queue, messageId, reason });
}

/** The id of a message body, if it has one (a malformed body may not). */
export function messageIdOf(body: string): string | undefined {
  try {
    const { id } = JSON.parse(body) as { id?: unknown };
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
