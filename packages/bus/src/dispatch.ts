import type { Logger } from '@cloud/logging';
import { decodeMessage, MalformedMessageError, type AnyBusMessage } from './messages';

/** How often a message is tried before it goes to the dead-letter queue, and how long between tries. */
export interface RetryPolicy {
  maxAttempts: number;
  /** Delay before the first retry; doubled for each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

// Eight tries over about a minute: long enough to ride out a database restart.
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 15_000 };

export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

/** A message as it came off a queue: its body and how many times it has been tried before. */
export interface Delivery {
  body: string;
  attempts: number;
}

/** What to do with a delivery: acknowledge it, try it again later, or dead-letter it. */
export type Outcome =
  | { action: 'ack' }
  | { action: 'retry'; attempts: number; delayMs: number }
  | { action: 'dead'; reason: string };

/**
 * Decodes a batch and hands the well-formed messages to the handler, returning one outcome per
 * delivery, in order. A malformed message is dead-lettered at once. When the batch fails, each
 * message is tried alone, so one bad message does not hold back the others.
 */
export async function dispatch(
  deliveries: readonly Delivery[],
  handle: (messages: AnyBusMessage[]) => Promise<void>,
  policy: RetryPolicy,
  logger: Logger,
): Promise<Outcome[]> {
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
