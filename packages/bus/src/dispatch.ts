import { setTimeout as sleep } from 'node:timers/promises';
import { isDependencyUnavailable } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import { decodeMessage, MalformedMessageError, type AnyBusMessage } from './messages';

/**
 * How often a message is tried before it goes to the dead-letter queue, and how long between
 * tries; and how long a consumer waits between tries while a dependency is unreachable, which
 * are not counted.
 */
export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** While the handler cannot reach a dependency (the database): the first wait before it tries the held messages again (default 1 s); doubled for each further one. */
  outageBaseDelayMs?: number;
  /** Default 60 s. */
  outageMaxDelayMs?: number;
}

// Eight tries over about 30 s, for a message the handler cannot take. A database outage is not
// the message's fault and is waited out however long it lasts (see `handleThroughOutages`): 1 s,
// 2 s, 4 s ... then every minute, so consuming resumes at most a minute after the database is back.
const OUTAGE_BASE_DELAY_MS = 1000;
const OUTAGE_MAX_DELAY_MS = 60_000;
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 15_000,
  outageBaseDelayMs: OUTAGE_BASE_DELAY_MS,
  outageMaxDelayMs: OUTAGE_MAX_DELAY_MS,
};

export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

/** A message as it came off a queue: its body and how many times it has been tried before. */
export interface Delivery {
  body: string;
  attempts: number;
}

/** What to do with a delivery: acknowledge it, try it again later, or dead-letter it. */
export type Outcome = { action: 'ack' } | { action: 'retry'; attempts: number; delayMs: number } | { action: 'dead'; reason: string };

/**
 * Decodes a batch and hands the well-formed messages to the handler, returning one outcome per
 * delivery, in order. A malformed message is dead-lettered at once. When the batch fails, each
 * message is tried alone, so one bad message does not hold back the others. While the handler
 * fails because a dependency is unreachable, the batch is held and tried again
 * (`handleThroughOutages`) until `signal` aborts (its consumer or the bus closing).
 */
export async function dispatch(
  deliveries: readonly Delivery[],
  handler: (messages: AnyBusMessage[]) => Promise<void>,
  policy: RetryPolicy,
  logger: Logger,
  signal: AbortSignal,
): Promise<Outcome[]> {
  const handle = (messages: AnyBusMessage[]) => handleThroughOutages(messages, handler, policy, logger, signal);
  const outcomes: Outcome[] = new Array<Outcome>(deliveries.length);
  const valid: { index: number; delivery: Delivery; message: AnyBusMessage }[] = [];
  deliveries.forEach((delivery, index) => {
    try {
      valid.push({ index, delivery, message: decodeMessage(delivery.body) });
    } catch (error) {
      if (!(error instanceof MalformedMessageError)) throw error;
      logger.error('malformed message dead-lettered', { reason: error.message });
      outcomes[index] = { action: 'dead', reason: error.message };
    }
  });
  if (valid.length === 0) return outcomes;
  try {
    await handle(valid.map((entry) => entry.message));
    for (const { index } of valid) outcomes[index] = { action: 'ack' };
    return outcomes;
  } catch (error) {
    const [only] = valid;
    if (valid.length === 1 && only) {
      outcomes[only.index] = failed(only.delivery, only.message, error, policy, logger);
      return outcomes;
    }
    logger.warn('batch failed; trying its messages one by one', { size: valid.length, error });
  }
  for (const { index, delivery, message } of valid) {
    try {
      await handle([message]);
      outcomes[index] = { action: 'ack' };
    } catch (error) {
      outcomes[index] = failed(delivery, message, error, policy, logger);
    }
  }
  return outcomes;
}

/**
 * Runs the handler until it succeeds or fails for a reason of its own. A failure because a
 * dependency cannot be reached (`isDependencyUnavailable`: the database down, restarting or
 * unreachable) says nothing about the messages, so it is not counted as one of their tries: they
 * are held, unacknowledged, and the handler is tried again after a wait that doubles up to
 * `outageMaxDelayMs`. The consumer, which handles one batch at a time, takes nothing else
 * meanwhile: it pauses for as long as the outage lasts, and resumes at most `outageMaxDelayMs`
 * after. Once `signal` aborts, the failure is returned like any other (it counts as a try).
 */
async function handleThroughOutages(
  messages: AnyBusMessage[],
  handle: (messages: AnyBusMessage[]) => Promise<void>,
  policy: RetryPolicy,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  for (let waits = 0; ; waits += 1) {
    try {
      await handle(messages);
      if (waits > 0) logger.warn('a dependency is reachable again; consuming resumes', { size: messages.length, waits });
      return;
    } catch (error) {
      if (!isDependencyUnavailable(error) || signal.aborted) throw error;
      const delayMs = Math.min((policy.outageBaseDelayMs ?? OUTAGE_BASE_DELAY_MS) * 2 ** waits, policy.outageMaxDelayMs ?? OUTAGE_MAX_DELAY_MS);
      logger.warn('a dependency is unreachable; holding the messages and trying again, not counted as a try', { size: messages.length, waits, delayMs, error });
      const waited = await sleep(delayMs, true, { signal }).catch(() => false);
      if (!waited) throw error;
    }
  }
}

function failed(delivery: Delivery, message: AnyBusMessage, error: unknown, policy: RetryPolicy, logger: Logger): Outcome {
  const attempts = delivery.attempts + 1;
  if (attempts >= policy.maxAttempts) {
    logger.error('message dead-lettered after its last try', { messageId: message.id, kind: message.kind, attempts, error });
    return { action: 'dead', reason: `failed ${attempts} times: ${error instanceof Error ? error.message : String(error)}` };
  }
  const delayMs = retryDelayMs(policy, attempts);
  logger.warn('message handling failed; will retry', { messageId: message.id, kind: message.kind, attempts, delayMs, error });
  return { action: 'retry', attempts, delayMs };
}
