import os from 'node:os';
import { connect, type Channel, type ChannelModel, type Options, type RecoveringChannelModel } from 'amqplib';
import type { Logger } from '@cloud/logging';
import { BusUnavailableError, DEFAULT_RPC_TIMEOUT_MS, durableQueues, type Bus, type Subscription, type Unsubscribe } from './bus';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './dispatch';
import { encodeMessage, type BusMessage } from './messages';
import { asError, type ConsumerHost, type Live } from './rabbitmq-connection';
import { RpcClient, startRpcServer } from './rabbitmq-rpc';
import { SubscriptionConsumers } from './rabbitmq-subscriptions';
import { answerRpc, requestUntilServed, type RpcHandler, type RpcMethod, type RpcReply, type RpcRequest } from './rpc';

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

/**
 * The bus on RabbitMQ. One topic exchange takes every message, routed by kind. Messages are
 * persistent and published with confirms; consumers (`SubscriptionConsumers`) acknowledge only
 * after their handler has committed; RPC goes through `RpcClient` and `startRpcServer`. After a
 * lost connection amqplib reconnects with backoff and jitter, and `setup` declares the topology
 * and restarts every consumer and server again; until then `checkReady` fails and `publish`
 * refuses (the outbox keeps the messages).
 */
export class RabbitMqBus implements Bus {
  readonly transport = 'rabbitmq';
  readonly exchange: string;
  private live: Live | undefined;
  private readonly subscriptions: Subscription[] = [];
  private readonly servers = new Map<RpcMethod, (body: string) => Promise<string>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly declared = new Set<string>();
  /** What the consumers and RPC parts use of this bus. */
  private readonly host: ConsumerHost;
  private readonly consumers: SubscriptionConsumers;
  private readonly rpc: RpcClient;
  private closing = false;

  private constructor(
    private readonly options: RabbitMqBusOptions,
    private readonly connection: RecoveringChannelModel,
  ) {
    this.exchange = this.name('messages');
    this.host = {
      logger: options.logger,
      name: (suffix) => this.name(suffix),
      assertQueue: (channel, queue, queueOptions) => this.assertQueue(channel, queue, queueOptions),
      onChannelError: (model, channel, role) => this.onChannelError(model, channel, role),
      track: (work) => this.track(work),
    };
    this.consumers = new SubscriptionConsumers(this.host, this.exchange, options.retry ?? DEFAULT_RETRY_POLICY);
    this.rpc = new RpcClient(this.host);
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
    const rpcClient = await this.rpc.openChannel(model);

    const live: Live = { model, publisher, rpcClient, consumers: [] };
    this.live = live;
    // Taken now: whatever subscribes from here on starts itself on this connection. Broadcasts
    // first: their catch-up (the revocations snapshot) is asked for before any queue is consumed.
    const subscriptions = [...this.subscriptions].sort((a, b) => Number('queue' in a) - Number('queue' in b));
    const servers = [...this.servers];
    try {
      for (const subscription of subscriptions) await this.consumers.start(live, subscription);
      for (const [method, answer] of servers) await startRpcServer(this.host, live, method, answer);
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
    if (this.live) await this.consumers.start(this.live, subscription);
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

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  async serve<M extends RpcMethod>(method: M, handler: RpcHandler<M>): Promise<Unsubscribe> {
    const answer = (body: string) => answerRpc(method, handler, body);
    this.servers.set(method, answer);
    if (this.live) await startRpcServer(this.host, this.live, method, answer);
    return async () => {
      if (this.servers.get(method) !== answer) return;
      this.servers.delete(method);
      await this.stopConsumers(method);
    };
  }

  request<M extends RpcMethod>(method: M, request: RpcRequest<M>, timeoutMs = DEFAULT_RPC_TIMEOUT_MS): Promise<RpcReply<M>> {
    return requestUntilServed(method, timeoutMs, (remainingMs) => this.rpc.requestOnce(this.live?.rpcClient, method, request, remainingMs));
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
    this.consumers.stopWaiting();
    await this.waitForInFlight(Date.now() + drainMs);
    this.rpc.rejectAll(new BusUnavailableError('the bus closed'));
    // amqplib's close() never settles when the socket drops during the closing handshake (a broker
    // restart, a network failure not yet noticed): it emits 'close' but never calls back. So the
    // connection's 'close' event ends the wait too.
    const model = this.live?.model;
    const dropped = model ? new Promise<void>((resolve) => model.once('close', () => resolve())) : undefined;
    await (dropped ? Promise.race([this.connection.close(), dropped]) : this.connection.close());
    this.live = undefined;
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
