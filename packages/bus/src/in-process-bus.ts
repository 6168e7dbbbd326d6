import type { Logger } from '@cloud/logging';
import { BusUnavailableError, DEFAULT_RPC_TIMEOUT_MS, durableQueues, type Bus, type DurableQueue, type Subscription, type Unsubscribe } from './bus';
import { messageIdOf, recordDeadLetter } from './dead-letter-metrics';
import { DEFAULT_RETRY_POLICY, dispatch, type Delivery, type RetryPolicy } from './dispatch';
import { encodeMessage, patternMatches, type BusMessage } from './messages';
import {
  answerRpc,
  decodeRpcResult,
  requestUntilServed,
  RpcError,
  RpcUnservedError,
  type RpcHandler,
  type RpcMethod,
  type RpcReply,
  type RpcRequest,
} from './rpc';

export interface DeadLetter {
  body: string;
  reason: string;
}

/** One queue: deliveries waiting, the subscriptions taking turns at it, and what was dead-lettered. */
class MemoryQueue {
  readonly pending: Delivery[] = [];
  readonly consumers: Subscription[] = [];
  readonly dead: DeadLetter[] = [];
  private turn = 0;
  busy: Promise<void> | undefined;

  /** `name`: the queue's, or the broadcast subscription's; its dead letters are counted as `<name>.dead`. */
  constructor(
    readonly name: string,
    readonly bindings: readonly string[],
  ) {}

  nextConsumer(): Subscription | undefined {
    if (this.consumers.length === 0) return undefined;
    this.turn = (this.turn + 1) % this.consumers.length;
    return this.consumers[this.turn];
  }
}

/**
 * The embedded bus, for services sharing one process (`npm start`). Messages are serialised as on
 * the wire, so consumers see the same checks, batches, retries and dead-lettering as on RabbitMQ.
 * Messages live in memory: `close` delivers what is queued first, but a process that crashes loses
 * it. Producers publish from their outbox, which keeps every message until the bus has taken it.
 */
export class InProcessBus implements Bus {
  readonly transport = 'in-process';
  private readonly queues = new Map<string, MemoryQueue>();
  private readonly handlers = new Map<RpcMethod, (body: string) => Promise<string>>();
  // Retries waiting for their backoff, and how to run each at once (on close).
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private closed = false;
  private broadcasts = 0;
  /** Ends each subscription's wait through a dependency's outage when it unsubscribes or the bus closes. */
  private readonly stops = new Map<Subscription, AbortController>();

  constructor(
    private readonly logger: Logger,
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {
    for (const [name, bindings] of Object.entries(durableQueues)) this.queues.set(name, new MemoryQueue(name, bindings));
  }

  publish(messages: readonly BusMessage[]): Promise<void> {
    if (this.closed) return Promise.reject(new BusUnavailableError('the bus is closed'));
    for (const message of messages) {
      const body = encodeMessage(message);
      for (const queue of this.queues.values()) {
        if (queue.bindings.some((pattern) => patternMatches(pattern, message.kind))) queue.pending.push({ body, attempts: 0 });
      }
    }
    for (const queue of this.queues.values()) this.pump(queue);
    return Promise.resolve();
  }

  subscribe(subscription: Subscription): Promise<Unsubscribe> {
    this.stops.set(subscription, new AbortController());
    let queue: MemoryQueue;
    let key: string | undefined;
    if ('queue' in subscription) {
      queue = this.queueOf(subscription.queue);
      queue.consumers.push(subscription);
      this.pump(queue);
    } else {
      // A broadcast subscription gets a queue of its own, as on RabbitMQ.
      queue = new MemoryQueue(subscription.name, subscription.bindings);
      queue.consumers.push(subscription);
      key = `${subscription.name}#${++this.broadcasts}`;
      this.queues.set(key, queue);
      subscription.onSubscribed?.();
    }
    return Promise.resolve(async () => {
      const index = queue.consumers.indexOf(subscription);
      if (index >= 0) queue.consumers.splice(index, 1);
      this.stops.get(subscription)?.abort();
      this.stops.delete(subscription);
      // A broadcast queue goes with its subscriber, as an exclusive queue does on RabbitMQ.
      if (key !== undefined) this.queues.delete(key);
      await queue.busy?.catch(() => undefined);
    });
  }

  serve<M extends RpcMethod>(method: M, handler: RpcHandler<M>): Promise<Unsubscribe> {
    const answer = (body: string) => answerRpc(method, handler, body);
    this.handlers.set(method, answer);
    return Promise.resolve(() => {
      if (this.handlers.get(method) === answer) this.handlers.delete(method);
      return Promise.resolve();
    });
  }

  request<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs = DEFAULT_RPC_TIMEOUT_MS): Promise<RpcReply<M>> {
    return requestUntilServed(method, timeoutMs, (remainingMs) => this.requestOnce(method, request, remainingMs));
  }

  private async requestOnce<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs: number): Promise<RpcReply<M>> {
    if (this.closed) throw new BusUnavailableError('the bus is closed');
    const answer = this.handlers.get(method);
    if (!answer) throw new RpcUnservedError(`nobody serves ${method} yet`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RpcError(`${method}: no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return decodeRpcResult(method, await Promise.race([answer(JSON.stringify(request)), timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  checkReady(): void {
    if (this.closed) throw new BusUnavailableError('the bus is closed');
  }

  /** What a durable queue dead-lettered (for operators' tools and tests). */
  deadLetters(queue: DurableQueue): readonly DeadLetter[] {
    return this.queueOf(queue).dead;
  }

  /**
   * Stops taking messages and delivers what is queued first (retries due later are tried at
   * once), for up to `drainMs`; what is still undelivered then is logged and dropped.
   */
  async close(drainMs = 5000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.stops.values()) stop.abort();
    const deadline = Date.now() + drainMs;
    while (Date.now() < deadline) {
      for (const flush of [...this.timers.values()]) flush();
      const queues = [...this.queues.values()];
      for (const queue of queues) this.pump(queue, true);
      const busy = queues.flatMap((queue) => (queue.busy ? [queue.busy] : []));
      if (busy.length === 0 && this.timers.size === 0) break;
      await Promise.race([Promise.all(busy), new Promise((resolve) => setTimeout(resolve, 10))]);
    }
    for (const cancel of this.timers.keys()) clearTimeout(cancel);
    this.timers.clear();
    const lost = [...this.queues.values()].reduce((sum, queue) => sum + queue.pending.length, 0);
    if (lost > 0) this.logger.error('the in-process bus closed with messages undelivered', { lost });
  }

  private queueOf(name: DurableQueue): MemoryQueue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`no durable queue ${name}`);
    return queue;
  }

  /** Hands the next batch to a consumer, one batch at a time per queue, like a prefetch window. */
  private pump(queue: MemoryQueue, draining = false): void {
    if ((this.closed && !draining) || queue.busy || queue.pending.length === 0) return;
    const consumer = queue.nextConsumer();
    if (!consumer) return;
    const batch = queue.pending.splice(0, consumer.batchSize ?? 1);
    queue.busy = (async () => {
      // Deliver on a later turn of the event loop, as a network transport would.
      await new Promise((resolve) => setImmediate(resolve));
      const signal = this.stops.get(consumer)?.signal ?? AbortSignal.abort();
      const outcomes = await dispatch(batch, (messages) => consumer.handle(messages), this.policy, this.logger, signal);
      batch.forEach((delivery, index) => {
        const outcome = outcomes[index];
        if (outcome?.action === 'dead') {
          queue.dead.push({ body: delivery.body, reason: outcome.reason });
          recordDeadLetter(this.logger, `${queue.name}.dead`, messageIdOf(delivery.body), outcome.reason);
        }
        if (outcome?.action === 'retry') this.later(outcome.delayMs, () => queue.pending.push({ body: delivery.body, attempts: outcome.attempts }), queue);
      });
    })()
      .catch((error: unknown) => {
        // dispatch itself does not throw; should it, the batch goes back rather than being lost.
        this.logger.error('in-process delivery failed', { error });
        queue.pending.unshift(...batch);
      })
      .finally(() => {
        queue.busy = undefined;
        this.pump(queue, this.closed);
      });
  }

  private later(delayMs: number, action: () => void, queue: MemoryQueue): void {
    const run = () => {
      clearTimeout(timer);
      this.timers.delete(timer);
      action();
      this.pump(queue, this.closed);
    };
    const timer = setTimeout(run, delayMs);
    this.timers.set(timer, run);
  }
}
