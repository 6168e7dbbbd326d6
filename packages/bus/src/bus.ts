import type { AnyBusMessage, BusMessage } from './messages';
import type { RpcHandler, RpcMethod, RpcReply, RpcRequest } from './rpc';

/**
 * Durable queues, one per consuming service, shared by its replicas, and the kinds bound to each.
 * Every bus declares all of them when it connects, so a message published before its consumer
 * first starts is kept, not dropped.
 */
export const durableQueues = {
  /** The accounts service stores every service's call events. */
  'accounts.call-events': ['call.recorded', 'call.recorded-batch'],
  /** The nodes service deletes the nodes of a deleted user. */
  'nodes.user-deletions': ['revocation.user-deleted'],
  /** The nodes service creates and deletes the nodes of the staking service's validators. */
  'nodes.validators': ['validator.created', 'validator.deleted'],
  /** The nodes service stores the node-proxy's usage counts in time buckets, and forgets a deleted user's. */
  'nodes.usage': ['node.usage', 'revocation.user-deleted'],
  /** The staking service follows its validators' nodes: state and upstream. */
  'staking.node-changes': ['node.created', 'node.syncing', 'node.running', 'node.failed', 'node.credentials-changed', 'node.deleting', 'node.deleted'],
  /** The staking service forgets the validators of a deleted user (the nodes service deletes their nodes). */
  'staking.user-deletions': ['revocation.user-deleted'],
  /** The streams service ends the streams of a deleted node or pool, and forgets a deleted user's. */
  'streams.ends': ['node.deleted', 'pool.deleted', 'revocation.user-deleted'],
} as const satisfies Record<string, readonly string[]>;

export type DurableQueue = keyof typeof durableQueues;

interface SubscriptionBase {
  /** Messages handed to `handle` at once, at most. Default 1. */
  batchSize?: number;
  /**
   * Takes a batch of checked messages; resolving acknowledges them all, so resolve only once
   * their effect is committed. A message may come again (at-least-once): handle it idempotently,
   * by its id. A rejected batch is retried message by message with backoff, and a message that
   * keeps failing goes to the dead-letter queue.
   */
  handle(messages: AnyBusMessage[]): Promise<void>;
}

/** Competing consumers on a service's durable queue: each message reaches one replica. */
export interface QueueSubscription extends SubscriptionBase {
  queue: DurableQueue;
}

/**
 * Every instance gets every matching message, on a queue of its own that lives only while it is
 * connected. Messages sent while it was away are not kept for it, so `onSubscribed` (called after
 * each (re)connection) is where it catches up from the source of truth.
 */
export interface BroadcastSubscription extends SubscriptionBase {
  /** Names the subscription's dead-letter queue, `<prefix>.<name>.dead`. */
  name: string;
  /** Message kinds or topic patterns (`revocation.*`). */
  bindings: readonly string[];
  onSubscribed?(): void;
}

export type Subscription = QueueSubscription | BroadcastSubscription;

/**
 * Stops one consumer (or server) and waits, up to a few seconds, for the batches it is handling;
 * what it has not acknowledged goes to another consumer. For a service closing on a bus it shares
 * (see `SharedBusView`), so no message reaches a service whose database is already closed.
 */
export type Unsubscribe = () => Promise<void>;

/** The bus is not connected; the message was not taken. Try again later (the outbox does). */
export class BusUnavailableError extends Error {
  constructor(message = 'the message bus is not connected') {
    super(message);
  }
}

/**
 * The message bus every service uses: RabbitMQ when `AMQP_URL` is set, in-process otherwise.
 * Both deliver at least once, with the same retries and dead-lettering.
 */
export interface Bus {
  readonly transport: 'rabbitmq' | 'in-process';
  /** Resolves once the bus has taken every message (publisher confirms on RabbitMQ). */
  publish(messages: readonly BusMessage[]): Promise<void>;
  /** Starts consuming; the returned function stops this subscription alone (see `Unsubscribe`). */
  subscribe(subscription: Subscription): Promise<Unsubscribe>;
  /** Answers `method` requests; one of a service's replicas answers each. The returned function stops answering. */
  serve<M extends RpcMethod>(method: M, handler: RpcHandler<M>): Promise<Unsubscribe>;
  /** Asks whoever serves `method`; rejects after `timeoutMs` without an answer. */
  request<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs?: number): Promise<RpcReply<M>>;
  /** Throws `BusUnavailableError` while disconnected: the readiness probe. */
  checkReady(): void;
  /** Stops consuming, waits for batches being handled, and disconnects. */
  close(): Promise<void>;
}

export const DEFAULT_RPC_TIMEOUT_MS = 5000;
