import type { Channel, ConsumeMessage } from 'amqplib';
import type { Subscription } from './bus';
import { Batcher } from './batcher';
import { messageIdOf, recordDeadLetter } from './dead-letter-metrics';
import { dispatch, type Outcome, type RetryPolicy } from './dispatch';
import { asError, type ConsumerHost, type Live } from './rabbitmq-connection';

/** Where a consumer's deliveries come from and where their retries and dead letters go. */
interface Route {
  live: Live;
  channel: Channel;
  queue: string;
  /** The dead-letter queue's name without the prefix, as dead letters are counted. */
  deadName: string;
  deadQueue: string;
  /** Only durable queues have one. */
  retryQueue: string | undefined;
  /** Deliveries of the channel not yet acknowledged, other than those of a batch being acknowledged at once. */
  unsettled: number;
  /** Aborts when the consumer stops, its channel closes or the bus closes. */
  signal: AbortSignal;
}

/**
 * The consumers of the RabbitMQ bus's subscriptions: a durable queue's (declared with the
 * topology, shared by a service's replicas) or a broadcast's (a server-named queue of its own,
 * gone with its connection). Consumers acknowledge only after their handler has committed.
 *
 * Retries are republished to the message's own queue with an `x-attempts` header after the
 * backoff, then acknowledged; dead letters go to `<queue>.dead` with the reason in `x-error`.
 */
export class SubscriptionConsumers {
  private readonly delays = new Set<() => void>();
  /** Ends every consumer's wait through a dependency's outage when the bus closes. */
  private readonly closed = new AbortController();

  constructor(
    private readonly host: ConsumerHost,
    private readonly exchange: string,
    private readonly policy: RetryPolicy,
  ) {}

  async start(live: Live, subscription: Subscription): Promise<void> {
    const { host } = this;
    const channel = await live.model.createChannel();
    host.onChannelError(live.model, channel, 'consumer');
    const batchSize = subscription.batchSize ?? 1;
    // Room for the next batch to arrive while one is being handled.
    await channel.prefetch(batchSize * 2);
    let queue: string;
    let deadName: string;
    let retryQueue: string | undefined;
    if ('queue' in subscription) {
      queue = host.name(subscription.queue);
      deadName = `${subscription.queue}.dead`;
      retryQueue = host.name(`${subscription.queue}.retry`);
    } else {
      ({ queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false }));
      for (const pattern of subscription.bindings) await channel.bindQueue(queue, this.exchange, pattern);
      deadName = `${subscription.name}.dead`;
      await host.assertQueue(channel, host.name(deadName));
    }
    // A batch held through an outage is let go when its consumer stops, its channel is gone or the bus closes.
    const stopped = new AbortController();
    channel.on('close', () => stopped.abort());
    const route: Route = {
      live,
      channel,
      queue,
      deadName,
      deadQueue: host.name(deadName),
      retryQueue,
      unsettled: 0,
      signal: AbortSignal.any([stopped.signal, this.closed.signal]),
    };
    const batcher = new Batcher<ConsumeMessage>(batchSize, (batch) => host.track(this.handleBatch(route, subscription, batch)));
    const { consumerTag } = await channel.consume(queue, (delivery) => {
      if (delivery) batcher.add(delivery);
      else host.logger.warn('the broker cancelled a consumer', { queue });
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

  /** The bus closes: retries waiting out their backoff and batches held through an outage are let go. */
  stopWaiting(): void {
    for (const cancel of [...this.delays]) cancel();
    this.closed.abort();
  }

  private async handleBatch(route: Route, subscription: Subscription, batch: ConsumeMessage[]): Promise<void> {
    const deliveries = batch.map((delivery) => ({
      body: delivery.content.toString('utf8'),
      attempts: Number(delivery.properties.headers?.['x-attempts'] ?? 0) || 0,
    }));
    route.unsettled += batch.length; // stays counted should dispatch ever throw: those stay unacknowledged
    const outcomes = await dispatch(deliveries, (messages) => subscription.handle(messages), this.policy, this.host.logger, route.signal);
    route.unsettled -= batch.length;
    const last = batch.at(-1);
    if (last && route.unsettled === 0 && batch.every((_, index) => (outcomes[index]?.action ?? 'ack') === 'ack')) {
      // The usual case: every message was handled and nothing delivered earlier on this channel
      // awaits its acknowledgement, so one acknowledgement (`allUpTo`) covers the batch; one per
      // message costs the broker much more CPU (bench/events-throughput.ts).
      try {
        route.channel.ack(last, true);
      } catch (error) {
        this.host.logger.warn('delivery left unacknowledged; the broker will deliver it again', { queue: route.queue, error });
      }
      return;
    }
    batch.forEach((delivery, index) => {
      const outcome = outcomes[index] ?? { action: 'ack' };
      void this.host.track(this.settle(route, delivery, outcome));
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
          await resend(live, route.retryQueue, delivery, headers, String(outcome.delayMs));
        } else {
          if (!(await this.delay(outcome.delayMs))) return;
          await resend(live, queue, delivery, headers);
        }
      }
      if (outcome.action === 'dead') {
        await resend(live, route.deadQueue, delivery, { 'x-error': outcome.reason.slice(0, 1000) });
        const messageId = (delivery.properties.messageId as string | undefined) ?? messageIdOf(delivery.content.toString('utf8'));
        recordDeadLetter(this.host.logger, route.deadName, messageId, outcome.reason);
      }
      channel.ack(delivery);
      if (pending) route.unsettled -= 1;
    } catch (error) {
      this.host.logger.warn('delivery left unacknowledged; the broker will deliver it again', { queue, error });
    }
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
}

function resend(live: Live, queue: string, delivery: ConsumeMessage, headers: Record<string, unknown>, expiration?: string): Promise<void> {
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
