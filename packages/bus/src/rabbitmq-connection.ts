import type { Channel, ChannelModel, ConfirmChannel, Options } from 'amqplib';
import type { Logger } from '@cloud/logging';
import type { Subscription } from './bus';
import type { RpcMethod } from './rpc';

/** What exists while the RabbitMQ bus is connected; replaced on every reconnection. */
export interface Live {
  model: ChannelModel;
  publisher: ConfirmChannel;
  rpcClient: Channel;
  /** Every consumer on this connection, by what it serves: a subscription, or a method's server. */
  consumers: { channel: Channel; tag: string; owner: Subscription | RpcMethod; stop?: () => void }[];
}

/** What the bus lends the subscription consumers and RPC parts it starts on a connection. */
export interface ConsumerHost {
  logger: Logger;
  /** `<prefix>.<suffix>`: the names of the exchange and every queue. */
  name(suffix: string): string;
  /** Declares a durable queue and counts it among those the bus declared. */
  assertQueue(channel: Channel, queue: string, options?: Options.AssertQueue): Promise<void>;
  /** Makes a channel the broker closes with an error rebuild the connection. */
  onChannelError(model: ChannelModel, channel: Channel, role: string): void;
  /** Counts work until it settles: stopping a consumer and closing the bus wait for it. */
  track<T>(work: Promise<T>): Promise<T>;
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
