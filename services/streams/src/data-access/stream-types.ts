// What a stream is, and the events it delivers: the types every layer of the service shares.

export const STREAM_KINDS = ['blocks', 'transactions'] as const;
/** `blocks`: every block header, and a `reorg` event when blocks are replaced; `transactions`: transactions touching given addresses (and `reorg` events). */
export type StreamKind = (typeof STREAM_KINDS)[number];

/** `active`: followed and delivered; `paused`: neither, and it resumes where it stopped (nothing is skipped). */
export type StreamState = 'active' | 'paused';

/** A block as a stream saw it: its height and hash. */
export interface BlockRef {
  height: number;
  hash: string;
}

/** A stream as the repositories return it (a plain object; `docs/decisions/024-streams.md`). */
export interface StreamRecord {
  id: string;
  userId: string;
  /** The node (`node-…`) or pool (`pool-…`) followed. */
  nodeId: string;
  name: string;
  kind: StreamKind;
  url: string;
  /** Watched addresses (`transactions`): eth lower-case 0x…, Bitcoin family as the node writes them. */
  addresses: string[];
  /** eth log topics (topic 0, lower-case 0x… 32 bytes) a watched contract's log must have; empty: any. */
  topics: string[];
  secretSealed: string;
  state: StreamState;
  /** The first block asked for; null: the head when the stream was first scanned. */
  fromHeight: number | null;
  /** The last block scanned; null before the first scan. */
  cursor: BlockRef | null;
  /** The seq the next event gets. */
  nextSeq: number;
  /** Every event with a seq at or below it is delivered or parked. */
  deliveredSeq: number;
  /** Failed attempts in a row of the batch now pending. */
  attempts: number;
  failingSince: Date | null;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A new block on the followed chain (`blocks` streams). */
export interface BlockEvent {
  id: string;
  type: 'block';
  height: number;
  hash: string;
  parentHash: string | null;
  /** The block's own time, ISO 8601 UTC. */
  time: string;
  /** How many transactions it holds. */
  transactions: number;
}

/**
 * Blocks above `forkHeight` were replaced (every stream kind gets it): `dropped` are the blocks
 * the stream had delivered there, `added` the new chain's blocks, whose own events follow.
 */
export interface ReorgEvent {
  id: string;
  type: 'reorg';
  forkHeight: number;
  dropped: BlockRef[];
  added: BlockRef[];
}

/** A transaction touching a watched address (`transactions` streams), with what matched. */
export interface EthereumTransactionEvent {
  id: string;
  type: 'transaction';
  family: 'ethereum';
  height: number;
  blockHash: string;
  hash: string;
  from: string;
  to: string | null;
  /** Wei, as a decimal string. */
  value: string;
  /** `from`, `to`, `log` (a log of a watched contract, with a watched topic when topics are set). */
  matched: Array<'from' | 'to' | 'log'>;
  logs: Array<{ address: string; topics: string[]; data: string; logIndex: number }>;
}

export interface BitcoinTransactionEvent {
  id: string;
  type: 'transaction';
  family: 'bitcoin';
  height: number;
  blockHash: string;
  txid: string;
  /** `output`: pays a watched address; `input`: spends an output that paid one. */
  matched: Array<'output' | 'input'>;
  /** The outputs paying watched addresses (value in coins, as the node writes it, as a decimal string). */
  outputs: Array<{ vout: number; address: string; value: string }>;
  /** The inputs spending outputs that paid watched addresses. */
  inputs: Array<{ txid: string; vout: number; address: string; value: string }>;
}

export type TransactionEvent = EthereumTransactionEvent | BitcoinTransactionEvent;

/** Sent by the test-delivery call only, outside the stream's order. */
export interface TestEvent {
  id: string;
  type: 'test';
  message: string;
}

export type StreamEvent = BlockEvent | ReorgEvent | TransactionEvent | TestEvent;

/** An event with its place in its stream, as delivered. */
export type SequencedEvent = StreamEvent & { seq: number };

/** The JSON body of one delivery (one POST to the stream's URL). */
export interface DeliveryBody {
  streamId: string;
  nodeId: string;
  kind: StreamKind;
  /** `dlv-<uuid>`, also in the `x-cloud-delivery` header; a retry of the same events has a new one. */
  deliveryId: string;
  /** 1 for the first try of these events, then 2, 3, … */
  attempt: number;
  /** In stream order; `id` is kept through retries and replays (de-duplicate on it). */
  events: SequencedEvent[];
}

/** One delivery attempt as the stream's log keeps it (a row of stream_deliveries). */
export interface DeliveryAttemptView {
  deliveryId: string;
  attempt: number;
  firstSeq: number | null;
  lastSeq: number | null;
  events: number;
  outcome: 'delivered' | 'failed' | 'parked' | 'test';
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  at: Date;
}
