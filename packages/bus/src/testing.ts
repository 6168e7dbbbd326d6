import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { connect } from 'amqplib';
import type { Bus } from './bus';
import { RabbitMqBus } from './rabbitmq-bus';

/** The broker of `AMQP_URL`, or the machine's local RabbitMQ. */
export const TEST_AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

/** A prefix of names no other test run or worker uses. */
export function uniqueBusPrefix(label = 'test'): string {
  return `${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Deletes what a test's buses declared, so runs leave nothing on the broker. */
export async function deleteBusTopology(url: string, names: { exchange: string; queues: readonly string[] }): Promise<void> {
  const connection = await connect(url);
  try {
    const channel = await connection.createChannel();
    for (const queue of new Set(names.queues)) await channel.deleteQueue(queue);
    await channel.deleteExchange(names.exchange);
  } finally {
    await connection.close();
  }
}

/**
 * Deletes what every RabbitMQ bus of a test declared (the test's own and its services'), as they
 * share one prefix: each service declares the queues of its own subscriptions and RPC methods.
 */
export async function deleteTopologyOf(url: string, buses: readonly Bus[]): Promise<void> {
  const declared = buses.filter((bus): bus is RabbitMqBus => bus instanceof RabbitMqBus).map((bus) => bus.declaredNames());
  if (declared.length === 0) return;
  await deleteBusTopology(url, { exchange: declared[0]!.exchange, queues: declared.flatMap((names) => names.queues) });
}

/**
 * A TCP relay between a client and the broker (or any TCP server: PostgreSQL) that a test can cut
 * and restore, as a network failure or a server restart would: `cut` drops every open connection
 * and refuses new ones. The machine's shared servers are never stopped by a test.
 */
export class BrokerLink {
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | undefined;

  private constructor(
    private readonly target: URL,
    public port = 0,
  ) {}

  static async open(targetUrl: string = TEST_AMQP_URL): Promise<BrokerLink> {
    const link = new BrokerLink(new URL(targetUrl));
    await link.restore();
    return link;
  }

  /** The broker's URL, through this link. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5672), this.target.hostname);
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.cut();
  }
}
