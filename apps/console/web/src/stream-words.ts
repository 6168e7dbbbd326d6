import type { DeliveryAttempt, Stream } from '@cloud/sdk/browser';

// The words the streams pages show for a stream's state and its deliveries: one place, so the
// list and the stream's page say the same.

/** A delivery attempt in a few words: "delivered (200, 12 ms)", "failed (500, 8 ms)", "failed (no answer)". */
export function attemptWords(attempt: DeliveryAttempt): string {
  const answer = attempt.statusCode === null ? 'no answer' : `${attempt.statusCode}, ${attempt.latencyMs} ms`;
  return `${attempt.outcome} (${answer})`;
}

/** Which events an attempt carried: "3–7", "5", or "test" for a test delivery. */
export function seqWords(attempt: DeliveryAttempt): string {
  if (attempt.firstSeq === null) return 'test';
  return attempt.lastSeq === null || attempt.lastSeq === attempt.firstSeq ? String(attempt.firstSeq) : `${attempt.firstSeq}–${attempt.lastSeq}`;
}

/** The stream's state in words: paused, failing since …, or active. */
export function streamStateWords(stream: Stream): string {
  if (stream.state === 'paused') return 'Paused';
  if (stream.failing) return `Failing since ${new Date(stream.failing.since).toLocaleString()} (${stream.failing.attempts} attempts)`;
  return 'Active';
}

/** The last delivery in words, or that there has been none yet. */
export function lastDeliveryWords(stream: Stream): string {
  const last = stream.lastDelivery;
  return last ? `${attemptWords(last)} at ${new Date(last.at).toLocaleString()}` : 'none yet';
}
