import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Options, type RecoveringChannelModel } from 'amqplib';
import type { Logger } from '@cloud/logging';
import { BusUnavailableError, DEFAULT_RPC_TIMEOUT_MS, durableQueues, type Bus, type Subscription, type Unsubscribe } from './bus';
import { messageIdOf, recordDeadLetter } from './dead-letter-metrics';
import { DEFAULT_RETRY_POLICY, dispatch, type Outcome, type RetryPolicy } from './dispatch';
import { encodeMessage, type BusMessage } from './messages';
import { answerRpc, decodeRpcResult, requestUntilServed, RpcError, RpcUnservedError, type RpcHandler, type RpcMethod, type RpcReply, type RpcRequest } from './rpc';

export interface RabbitMqBusOptions {
  url: string;
  /** Names the exchange and every queue (`<prefix>.<queue>`), so several installations or test runs can share a broker. */
  prefix: string;
  /** Shown in the broker's connection list. */
  service: string;
  logger: Logger;
  retry?: RetryPolicy;
  /** Longest wait between two reconnection attempts. */
  maxReconnectDelayMs?: number;
}

/** What exists while connected; replaced on every reconnection. */
interface Live {
  model: ChannelModel;
  publisher: ConfirmChannel;
  rpcClient: Channel;
  /** Every consumer on this connection, by what it serves: a subscription, or a method's server. */
  consumers: { channel: Channel; tag: string; owner: Subscription | RpcMethod; stop?: () => void }[];
}

/** Where a consumer's deliveries come from and where their retries and dead letters go. */
interface Route {
  live: Live;
  channel: Channel;
  queue: string;
  deadQueue: string;
  /** Only durable queues have one. */
  retryQueue: string | undefined;
  /** Deliveries of the channel not yet acknowledged, other than those of a batch being acknowledged at once. */
  unsettled: number;
  /** Aborts when the consumer stops, its channel closes or the bus closes. */
  signal: AbortSignal;
}

interface PendingRequest {
  resolve(body: string): void;
  reject(error: Error): void;
}

const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

/**
 * The bus on RabbitMQ. One topic exchange takes every message, routed by kind. Messages are
 * persistent and published with confirms; consumers acknowledge only after their handler has
 * committed. After a lost connection amqplib reconnects with backoff and jitter, and `setup`
 * declares the topology and restarts every consumer and server again; until then `checkReady`
 * fails and `publish` refuses (the outbox keeps the messages).
 *
 * Retries are republished to the message's own queue with an `x-attempts` header after the
 * backoff, then acknowledged; dead letters go to `<queue>.dead` with the reason in `x-error`.
 */
export class RabbitMqBus implements Bus {
  readonly transport = 'rabbitmq';
  readonly exchange: string;
  private live: Live | undefined;
  private readonly subscriptions: Subscription[] = [];
  private readonly servers = new Map<RpcMethod, (body: string) => Promise<string>>();
  private readonly pending = new Map<string, PendingRequest>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly delays = new Set<() => void>();
  private readonly declared = new Set<string>();
  private readonly policy: RetryPolicy;
  private closing = false;
  /** Ends every consumer's wait through a dependency's outage when the bus closes. */
  private readonly closed = new AbortController();

  private constructor(
    private readonly options: RabbitMqBusOptions,
    private readonly connection: RecoveringChannelModel,
  ) {
    this.exchange = this.name('messages');
    this.policy = options.retry ?? DEFAULT_RETRY_POLICY;
  }

  /** Starts connecting and returns at once: a broker that is down is waited for, not fatal. */
  static async connect(options: RabbitMqBusOptions): Promise<RabbitMqBus> {
    // `setup` runs only after this returns (amqplib defers the first attempt), so the bus exists by then.
    const ref: { bus?: RabbitMqBus } = {};
    const connection = await connect(options.url, {
      clientProperties: { connection_name: `${options.service}@${os.hostname()}` },
      recovery: {
        waitForConnect: false,
        initialDelay: 200,
        maxDelay: options.maxReconnectDelayMs ?? 10_000,
        setup: (model: ChannelModel) => ref.bus!.setup(model),
      },
    });
    const bus = new RabbitMqBus(options, connection);
    ref.bus = bus;
    bus.watch();
    return bus;
  }

  /** Resolves once connected for the first time. */
  async waitUntilConnected(): Promise<void> {
    await this.connection.waitForConnect();
  }

  /** Every queue and exchange this bus declared, for tests and for uninstalling. */
  declaredNames(): { exchange: string; queues: string[] } {
    return { exchange: this.exchange, queues: [...this.declared] };
  }

  private name(suffix: string): string {
    return `${this.options.prefix}.${suffix}`;
  }

  private watch(): void {
    const { logger } = this.options;
    this.connection.on('connect', () => logger.info('message bus connected'));
    this.connection.on('disconnect', (error: Error) => logger.warn('message bus disconnected', { error }));
    this.connection.on('connect-failed', (error: Error) => logger.warn('could not connect to the message bus', { error }));
    this.connection.on('reconnect-scheduled', ({ attempt, delay }: { attempt: number; delay: number }) =>
      logger.info('reconnecting to the message bus', { attempt, delayMs: delay }),
    );
    this.connection.on('error', (error: Error) => logger.warn('message bus connection error', { error }));
  }

  /** Runs on every (re)connection: channels, topology, then every consumer and server again. */
  private async setup(model: ChannelModel): Promise<void> {
    model.on('close', () => {
      if (this.live?.model === model) this.live = undefined;
    });
    // A connection's own errors (a heartbeat timeout on a link that went silent) end in 'close',
    // which recovery handles; unlistened, they would crash the process.
    model.on('error', (error: Error) => this.options.logger.warn('message bus connection failed', { error }));
    const publisher = await model.createConfirmChannel();
    this.onChannelError(model, publisher, 'publisher');
    await publisher.assertExchange(this.exchange, 'topic', { durable: true });
    for (const [queue, bindings] of Object.entries(durableQueues)) {
      await this.assertQueue(publisher, this.name(queue));
      for (const pattern of bindings) await publisher.bindQueue(this.name(queue), this.exchange, pattern);
      // Retries wait here until their per-message expiration, then go back to the queue.
      await this.assertQueue(publisher, this.name(`${queue}.retry`), { deadLetterExchange: '', deadLetterRoutingKey: this.name(queue) });
      await this.assertQueue(publisher, this.name(`${queue}.dead`));
    }
    const rpcClient = await model.createChannel();
    this.onChannelError(model, rpcClient, 'rpc client');
    await rpcClient.consume(DIRECT_REPLY_TO, (reply) => this.onReply(reply), { noAck: true });
    // A request is published `mandatory`: with no server, its queue does not exist and the broker returns it.
    rpcClient.on('return', (returned: ConsumeMessage) => this.onReturned(returned));

    const live: Live = { model, publisher, rpcClient, consumers: [] };
    this.live = live;
    // Taken now: whatever subscribes from here on starts itself on this connection. Broadcasts
    // first: their catch-up (the revocations snapshot) is asked for before any queue is consumed.
    const subscriptions = [...this.subscriptions].sort((a, b) => Number('queue' in a) - Number('queue' in b));
    const servers = [...this.servers];
    try {
      for (const subscription of subscriptions) await this.startConsumer(live, subscription);
      for (const [method, answer] of servers) await this.startServer(live, method, answer);
    } catch (error) {
      this.live = undefined;
      throw error;
    }
  }

  private async assertQueue(channel: Channel, queue: string, options: Options.AssertQueue = {}): Promise<void> {
    await channel.assertQueue(queue, { durable: true, ...options });
    this.declared.add(queue);
  }

  /**
   * A channel the broker closed with an error would leave its consumer or publisher dead on a
   * live connection; closing the connection makes recovery rebuild everything instead.
   */
  private onChannelError(model: ChannelModel, channel: Channel, role: string): void {
    channel.on('error', (error: Error) => {
      this.options.logger.warn('message bus channel failed; reconnecting', { role, error });
      if (!this.closing) model.close().catch(() => undefined);
    });
  }

  async publish(messages: readonly BusMessage[]): Promise<void> {
    const live = this.live;
    if (!live) throw new BusUnavailableError();
    const confirms: Promise<void>[] = [];
    for (const message of messages) {
      let writable = true;
      const confirmed = new Promise<void>((resolve, reject) => {
        writable = live.publisher.publish(
          this.exchange,
          message.kind,
          Buffer.from(encodeMessage(message)),
          { persistent: true, messageId: message.id, type: message.kind, contentType: 'application/json' },
          (error: unknown) => (error ? reject(asError(error)) : resolve()),
        );
      });
      confirmed.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
      confirms.push(confirmed);
      if (!writable) await drained(live.publisher);
    }
    await Promise.all(confirms);
  }

  async subscribe(subscription: Subscription): Promise<Unsubscribe> {
    this.subscriptions.push(subscription);
    if (this.live) await this.startConsumer(this.live, subscription);
    return async () => {
      const index = this.subscriptions.indexOf(subscription);
      if (index >= 0) this.subscriptions.splice(index, 1);
      await this.stopConsumers(subscription);
    };
  }

  /**
   * Cancels the consumers of `owner` on the live connection (a later connection starts none for
   * it) and waits for the batches being handled; unacknowledged deliveries go to other consumers.
   */
  private async stopConsumers(owner: Subscription | RpcMethod, drainMs = 5000): Promise<void> {
    const live = this.live;
    if (live) {
      const mine = live.consumers.filter((consumer) => consumer.owner === owner);
      live.consumers = live.consumers.filter((consumer) => consumer.owner !== owner);
      await Promise.all(mine.map(({ channel, tag }) => channel.cancel(tag).catch(() => undefined)));
      for (const consumer of mine) consumer.stop?.();
      await this.waitForInFlight(Date.now() + drainMs);
      // Closing the channel hands back to the broker whatever it had not acknowledged.
      await Promise.all(mine.map(({ channel }) => channel.close().catch(() => undefined)));
    }
  }

  private async waitForInFlight(deadline: number): Promise<void> {
    while (this.inFlight.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((resolve) => {
        timer = setTimeout(resolve, deadline - Date.now());
      });
      await Promise.race([Promise.allSettled([...this.inFlight]), timeout]);
      clearTimeout(timer);
    }
  }

  private async startConsumer(live: Live, subscription: Subscription): Promise<void> {
    const channel = await live.model.createChannel();
    this.onChannelError(live.model, channel, 'consumer');
    const batchSize = subscription.batchSize ?? 1;
    // Room for the next batch to arrive while one is being handled.
    await channel.prefetch(batchSize * 2);
    let queue: string;
    let deadQueue: string;
    let retryQueue: string | undefined;
    if ('queue' in subscription) {
      queue = this.name(subscription.queue);
      deadQueue = this.name(`${subscription.queue}.dead`);
      retryQueue = this.name(`${subscription.queue}.retry`);
    } else {
      ({ queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false }));
      for (const pattern of subscription.bindings) await channel.bindQueue(queue, this.exchange, pattern);
      deadQueue = this.name(`${subscription.name}.dead`);
      await this.assertQueue(channel, deadQueue);
    }
    // A batch held through an outage is let go when its consumer stops, its channel is gone or the bus closes.
    const stopped = new AbortController();
    channel.on('close', () => stopped.abort());
    const route: Route = { live, channel, queue, deadQueue, retryQueue, unsettled: 0, signal: AbortSignal.any([stopped.signal, this.closed.signal]) };
    const batcher = new Batcher<ConsumeMessage>(batchSize, (batch) => this.track(this.handleBatch(route, subscription, batch)));
    const { consumerTag } = await channel.consume(queue, (delivery) => {
      if (delivery) batcher.add(delivery);
      else this.options.logger.warn('the broker cancelled a consumer', { queue });
    });
    live.consumers.push({
      channel,
      tag: consumerTag,
      owner: subscription,
      stop: () => {
        batcher.stop();
        stopped.abort();
      },
    });
    if (!('queue' in subscription)) subscription.onSubscribed?.();
  }

  private async handleBatch(route: Route, subscription: Subscription, batch: ConsumeMessage[]): Promise<void> {
    const deliveries = batch.map((delivery) => ({
      body: delivery.content.toString('utf8'),
      attempts: Number(delivery.properties.headers?.['x-attempts'] ?? 0) || 0,
    }));
    route.unsettled += batch.length; // stays counted should dispatch ever throw: those stay unacknowledged
    const outcomes = await dispatch(deliveries, (messages) => subscription.handle(messages), this.policy, this.options.logger, route.signal);
    route.unsettled -= batch.length;
    const last = batch.at(-1);
    if (last && route.unsettled === 0 && batch.every((_, index) => (outcomes[index]?.action ?? 'ack') === 'ack')) {
      // The usual case: every message was handled and nothing delivered earlier on this channel
      // awaits its acknowledgement, so one acknowledgement (`allUpTo`) covers the batch; one per
      // message costs the broker much more CPU (bench/events-throughput.ts).
      try {
        route.channel.ack(last, true);
      } catch (error) {
        this.options.logger.warn('delivery left unacknowledged; the broker will deliver it again', { queue: route.queue, error });
      }
      return;
    }
    batch.forEach((delivery, index) => {
      const outcome = outcomes[index] ?? { action: 'ack' };
      void this.track(this.settle(route, delivery, outcome));
    });
  }

  /**
   * Acknowledges a delivery once its outcome is in place. A retry of a durable queue goes to its
   * retry queue with the backoff as expiration, so it holds no prefetch slot meanwhile; a
   * broadcast queue (server-named, it can have no retry queue) waits out the backoff here. Any
   * failure leaves the delivery unacknowledged, so the broker delivers it again.
   */
  private async settle(route: Route, delivery: ConsumeMessage, outcome: Outcome): Promise<void> {
    const { live, channel, queue } = route;
    // Counted until acknowledged, so no later batch's single acknowledgement covers it meanwhile.
    const pending = outcome.action !== 'ack';
    if (pending) route.unsettled += 1;
    try {
      if (outcome.action === 'retry') {
        const headers = { 'x-attempts': outcome.attempts };
        if (route.retryQueue) {
          await this.resend(live, route.retryQueue, delivery, headers, String(outcome.delayMs));
        } else {
          if (!(await this.delay(outcome.delayMs))) return;
          await this.resend(live, queue, delivery, headers);
        }
      }
      if (outcome.action === 'dead') {
        await this.resend(live, route.deadQueue, delivery, { 'x-error': outcome.reason.slice(0, 1000) });
        const messageId = (delivery.properties.messageId as string | undefined) ?? messageIdOf(delivery.content.toString('utf8'));
        recordDeadLetter(this.options.logger, route.deadQueue.slice(this.options.prefix.length + 1), messageId, outcome.reason);
      }
      channel.ack(delivery);
      if (pending) route.unsettled -= 1;
    } catch (error) {
      this.options.logger.warn('delivery left unacknowledged; the broker will deliver it again', { queue, error });
    }
  }

  private resend(live: Live, queue: string, delivery: ConsumeMessage, headers: Record<string, unknown>, expiration?: string): Promise<void> {
    const { messageId, type, contentType } = delivery.properties as { messageId?: string; type?: string; contentType?: string };
    return new Promise<void>((resolve, reject) => {
      live.publisher.sendToQueue(
        queue,
        delivery.content,
        { persistent: true, messageId, type, contentType, expiration, headers: { ...delivery.properties.headers, ...headers } },
        (error: unknown) => (error ? reject(asError(error)) : resolve()),
      );
    });
  }

  /** Waits `ms`; resolves false instead if the bus closes first. */
  private delay(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const cancel = () => {
        clearTimeout(timer);
        this.delays.delete(cancel);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.delays.delete(cancel);
        resolve(true);
      }, ms);
      this.delays.add(cancel);
    });
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  async serve<M extends RpcMethod>(method: M, handler: RpcHandler<M>): Promise<Unsubscribe> {
    const answer = (body: string) => answerRpc(method, handler, body);
    this.servers.set(method, answer);
    if (this.live) await this.startServer(this.live, method, answer);
    return async () => {
      if (this.servers.get(method) !== answer) return;
      this.servers.delete(method);
      await this.stopConsumers(method);
    };
  }

  private async startServer(live: Live, method: RpcMethod, answer: (body: string) => Promise<string>): Promise<void> {
    const channel = await live.model.createChannel();
    this.onChannelError(live.model, channel, 'rpc server');
    const queue = this.requestQueue(method);
    // Exists only while some replica serves the method (deleted with its last consumer), so a
    // request nobody serves is unroutable and comes back at once rather than wait in a queue.
    await channel.assertQueue(queue, { durable: false, autoDelete: true });
    await channel.prefetch(4);
    const { consumerTag } = await channel.consume(queue, (request) => {
      if (!request) return;
      void this.track(
        answer(request.content.toString('utf8')).then((body) => {
          try {
            const { replyTo, correlationId } = request.properties as { replyTo?: string; correlationId?: string };
            if (replyTo) channel.sendToQueue(replyTo, Buffer.from(body), { correlationId, contentType: 'application/json' });
            channel.ack(request);
          } catch (error) {
            this.options.logger.warn('could not answer a request', { method, error });
          }
        }),
      );
    });
    live.consumers.push({ channel, tag: consumerTag, owner: method });
  }

  /** Named apart from the durable `rpc.<method>` queues of earlier versions, which cannot be redeclared auto-deleted. */
  private requestQueue(method: RpcMethod): string {
    return this.name(`requests.${method}`);
  }

  request<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs = DEFAULT_RPC_TIMEOUT_MS): Promise<RpcReply<M>> {
    return requestUntilServed(method, timeoutMs, (remainingMs) => this.requestOnce(method, request, remainingMs));
  }

  private requestOnce<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs: number): Promise<RpcReply<M>> {
    const live = this.live;
    if (!live) return Promise.reject(new BusUnavailableError());
    const correlationId = randomUUID();
    return new Promise<RpcReply<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(correlationId);
        reject(new RpcError(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(correlationId, {
        resolve: (body) => {
          clearTimeout(timer);
          try {
            resolve(decodeRpcResult(method, body));
          } catch (error) {
            reject(asError(error));
          }
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      try {
        live.rpcClient.sendToQueue(this.requestQueue(method), Buffer.from(JSON.stringify(request)), {
          correlationId,
          mandatory: true,
          replyTo: DIRECT_REPLY_TO,
          // A request nobody took in time is dropped rather than answered to a caller that gave up.
          expiration: String(timeoutMs),
          contentType: 'application/json',
        });
      } catch (error) {
        this.pending.delete(correlationId);
        clearTimeout(timer);
        reject(asError(error));
      }
    });
  }

  private onReply(reply: ConsumeMessage | null): void {
    const correlationId = reply?.properties.correlationId as string | undefined;
    const pending = correlationId === undefined ? undefined : this.pending.get(correlationId);
    if (!reply || !pending || correlationId === undefined) return;
    this.pending.delete(correlationId);
    pending.resolve(reply.content.toString('utf8'));
  }

  private onReturned(returned: ConsumeMessage): void {
    const correlationId = returned.properties.correlationId as string | undefined;
    const pending = correlationId === undefined ? undefined : this.pending.get(correlationId);
    if (!pending || correlationId === undefined) return;
    this.pending.delete(correlationId);
    pending.reject(new RpcUnservedError(`nobody serves ${returned.fields.routingKey} yet`));
  }

  checkReady(): void {
    if (!this.live) throw new BusUnavailableError();
  }

  /**
   * Stops consuming and waits up to `drainMs` for batches being handled; what is not acknowledged
   * by then is delivered again, to another replica or after the restart.
   */
  async close(drainMs = 5000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const live = this.live;
    if (live) {
      await Promise.all(live.consumers.map(({ channel, tag }) => channel.cancel(tag).catch(() => undefined)));
    }
    for (const cancel of [...this.delays]) cancel();
    this.closed.abort();
    await this.waitForInFlight(Date.now() + drainMs);
    for (const request of this.pending.values()) request.reject(new BusUnavailableError('the bus closed'));
    this.pending.clear();
    // amqplib's close() never settles when the socket drops during the closing handshake (a broker
    // restart, a network failure not yet noticed): it emits 'close' but never calls back. So the
    // connection's 'close' event ends the wait too.
    const model = this.live?.model;
    const dropped = model ? new Promise<void>((resolve) => model.once('close', () => resolve())) : undefined;
    await (dropped ? Promise.race([this.connection.close(), dropped]) : this.connection.close());
    this.live = undefined;
  }
}

/** Collects deliveries into batches: a full batch goes at once, a partial one on the next turn of the event loop. One batch is handled at a time. */
class Batcher<T> {
  private buffer: T[] = [];
  private busy = false;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly size: number,
    private readonly handle: (batch: T[]) => Promise<void>,
  ) {}

  add(item: T): void {
    if (this.stopped) return;
    this.buffer.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.next();
      });
    }
  }

  /** Drops what is buffered and takes nothing more (its consumer was cancelled; the broker redelivers). */
  stop(): void {
    this.stopped = true;
    this.buffer = [];
  }

  private next(): void {
    if (this.stopped || this.busy || this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, this.size);
    this.busy = true;
    void this.handle(batch)
      .catch(() => undefined)
      .finally(() => {
        this.busy = false;
        this.next();
      });
  }
}

function drained(channel: Channel): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      channel.off('drain', done);
      channel.off('close', done);
      resolve();
    };
    channel.on('drain', done);
    channel.on('close', done);
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
