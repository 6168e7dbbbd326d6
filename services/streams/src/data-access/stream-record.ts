import type { StreamKind, StreamRecord, StreamState } from './stream-types';

/** A row of `streams` as the database returns it (bigint columns may come back as strings). */
export interface StreamRow {
  id: string;
  user_id: string;
  node_id: string;
  name: string;
  kind: string;
  url: string;
  addresses: string;
  topics: string;
  secret_sealed: string;
  state: string;
  from_height: string | number | null;
  cursor_height: string | number | null;
  cursor_hash: string | null;
  next_seq: string | number;
  delivered_seq: string | number;
  attempts: number;
  failing_since: Date | string | null;
  next_attempt_at: Date | string | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at: Date | string | null;
  ended_reason: string | null;
}

const numberOf = (value: string | number): number => (typeof value === 'number' ? value : Number(value));
const nullableNumber = (value: string | number | null): number | null => (value === null ? null : numberOf(value));
const dateOf = (value: Date | string): Date => (value instanceof Date ? value : new Date(value));
const nullableDate = (value: Date | string | null): Date | null => (value === null ? null : dateOf(value));

/** The plain record of a row. */
export function toStreamRecord(row: StreamRow): StreamRecord {
  return {
    id: row.id,
    userId: row.user_id,
    nodeId: row.node_id,
    name: row.name,
    kind: row.kind as StreamKind,
    url: row.url,
    addresses: JSON.parse(row.addresses) as string[],
    topics: JSON.parse(row.topics) as string[],
    secretSealed: row.secret_sealed,
    state: row.state as StreamState,
    fromHeight: nullableNumber(row.from_height),
    cursor: row.cursor_height === null || row.cursor_hash === null ? null : { height: numberOf(row.cursor_height), hash: row.cursor_hash },
    nextSeq: numberOf(row.next_seq),
    deliveredSeq: numberOf(row.delivered_seq),
    attempts: row.attempts,
    failingSince: nullableDate(row.failing_since),
    nextAttemptAt: nullableDate(row.next_attempt_at),
    lastError: row.last_error,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
  };
}
