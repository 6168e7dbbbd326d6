import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { BusUnavailableError } from './bus';
import { asError, type ConsumerHost, type Live } from './rabbitmq-connection';
import { decodeRpcResult, RpcError, RpcUnservedError, type RpcMethod, type RpcReply, type RpcRequest } from './rpc';

const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

interface PendingRequest {
  resolve(body: string): void;
  reject(error: Error): void;
}

/** Named apart from the durable `rpc.<method>` queues of earlier versions, which cannot be redeclared auto-deleted. */
function requestQueue(host: ConsumerHost, method: RpcMethod): string {
  return host.name(`requests.${method}`);
}

/**
 * The asking side of RPC on RabbitMQ: a request goes to its method's queue with a correlation id
 * and comes back on the direct reply-to pseudo-queue, or is returned by the broker at once when
 * no replica serves the method.
 */
export class RpcClient {
  private readonly pending = new Map<string, PendingRequest>();

  constructor(private readonly host: ConsumerHost) {}

  /** The channel requests go out on and their answers come back to, on a new connection. */
  async openChannel(model: ChannelModel): Promise<Channel> {
    const channel = await model.createChannel();
    this.host.onChannelError(model, channel, 'rpc client');
    await channel.consume(DIRECT_REPLY_TO, (reply) => this.onReply(reply), { noAck: true });
    // A request is published `mandatory`: with no server, its queue does not exist and the broker returns it.
    channel.on('return', (returned: ConsumeMessage) => this.onReturned(returned));
    return channel;
  }

  /** One request on `channel` (none while disconnected), answered within `timeoutMs` or failed. */
  requestOnce<M extends RpcMethod>(channel: Channel | undefined, method: M, request: RpcRequest<M>, timeoutMs: number): Promise<RpcReply<M>> {
    if (!channel) return Promise.reject(new BusUnavailableError());
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
        channel.sendToQueue(requestQueue(this.host, method), Buffer.from(JSON.stringify(request)), {
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

  /** Fails every request still waiting for its answer. */
  rejectAll(error: Error): void {
    for (const request of this.pending.values()) request.reject(error);
    this.pending.clear();
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
}

/** The serving side: consumes `method`'s request queue on `live` and sends each answer to where the request asked. */
export async function startRpcServer(host: ConsumerHost, live: Live, method: RpcMethod, answer: (body: string) => Promise<string>): Promise<void> {
  const channel = await live.model.createChannel();
  host.onChannelError(live.model, channel, 'rpc server');
  const queue = requestQueue(host, method);
  // Exists only while some replica serves the method (deleted with its last consumer), so a
  // request nobody serves is unroutable and comes back at once rather than wait in a queue.
  await channel.assertQueue(queue, { durable: false, autoDelete: true });
  await channel.prefetch(4);
  const { consumerTag } = await channel.consume(queue, (request) => {
    if (!request) return;
    void host.track(
      answer(request.content.toString('utf8')).then((body) => {
        try {
          const { replyTo, correlationId } = request.properties as { replyTo?: string; correlationId?: string };
          if (replyTo) channel.sendToQueue(replyTo, Buffer.from(body), { correlationId, contentType: 'application/json' });
          channel.ack(request);
        } catch (error) {
          host.logger.warn('could not answer a request', { method, error });
        }
      }),
    );
  });
  live.consumers.push({ channel, tag: consumerTag, owner: method });
}
