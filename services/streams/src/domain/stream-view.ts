import type { BlockRef, DeliveryAttemptView, StreamKind, StreamRecord, StreamState } from './stream';

/** A stream as the API answers it; `secret` only in the answers that made one (creation, rotation). */
export interface StreamView {
  id: string;
  name: string;
  nodeId: string;
  kind: StreamKind;
  url: string;
  addresses: string[];
  topics: string[];
  state: StreamState;
  fromHeight: number | null;
  cursor: BlockRef | null;
  pendingEvents: number;
  deadLetters: number;
  failing: { since: string; attempts: number; nextAttemptAt: string | null; lastError: string | null } | null;
  lastDelivery: (Omit<DeliveryAttemptView, 'at'> & { at: string }) | null;
  createdAt: string;
  secret?: string;
}

/** What the view adds to the record: the stream's queue and its last attempt. */
export interface StreamProgress {
  counts: { pending: number; dead: number };
  lastDelivery: DeliveryAttemptView | undefined;
}

export const attemptView = (attempt: DeliveryAttemptView) => ({ ...attempt, at: attempt.at.toISOString() });

export function toStreamView(stream: StreamRecord, progress: StreamProgress, secret?: string): StreamView {
  return {
    id: stream.id,
    name: stream.name,
    nodeId: stream.nodeId,
    kind: stream.kind,
    url: stream.url,
    addresses: stream.addresses,
    topics: stream.topics,
    state: stream.state,
    fromHeight: stream.fromHeight,
    cursor: stream.cursor,
    pendingEvents: progress.counts.pending,
    deadLetters: progress.counts.dead,
    failing: stream.failingSince
      ? {
          since: stream.failingSince.toISOString(),
          attempts: stream.attempts,
          nextAttemptAt: stream.nextAttemptAt?.toISOString() ?? null,
          lastError: stream.lastError,
        }
      : null,
    lastDelivery: progress.lastDelivery ? attemptView(progress.lastDelivery) : null,
    createdAt: stream.createdAt.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}
