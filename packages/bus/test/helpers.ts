import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@cloud/logging';
import { message, type BusMessage, type RetryPolicy } from '../src';

/** Fast enough that a message failing every try is dead-lettered within a fraction of a second, and an outage is retried every 100 ms at most. */
export const FAST_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100, outageBaseDelayMs: 20, outageMaxDelayMs: 100 };

export const silentLogger = (service = 'cloud-bus-test'): Logger => createLogger({ service, level: 'silent' });

/** A logger whose lines (parsed JSON) a test can look at. */
export function recordingLogger(service = 'cloud-bus-test'): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: createLogger({ service, level: 'warn', stream }), lines };
}

/**
 * Polls `condition` until it holds (returns true, or anything but false/undefined without
 * throwing), failing with `what` and the last error after `timeoutMs`.
 */
export async function waitUntil(what: string, condition: () => unknown, timeoutMs = 10_000, intervalMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await condition();
      if (result !== false && result !== undefined) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A valid `call.recorded` message (its payload passes `callEventSchema`). */
export function callRecorded(index = 0, user = 'user-1'): BusMessage<'call.recorded'> {
  const start = new Date(Date.UTC(2026, 10, 22, 12, 0, 0, index % 1000));
  const end = new Date(start.getTime() + 15);
  return message('call.recorded', {
    id: `event-${randomUUID()}`,
    user,
    service: 'cloud-test',
    input: { method: 'GET', route: '/things/:id', resourceId: `thing-${index}` },
    output: { startTime: start.toISOString(), endTime: end.toISOString(), httpStatusCode: 200 + (index % 5), bytesOut: index },
    serviceData: { requestId: `req-${index}` },
    createdAt: end.toISOString(),
  });
}

export function callEvents(count: number, user = 'user-1'): BusMessage<'call.recorded'>[] {
  return Array.from({ length: count }, (_, index) => callRecorded(index, user));
}

/** A promise with its resolve function, for handlers a test holds and releases. */
export function gate(): { promise: Promise<void>; release(): void } {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
