// A TCP relay in front of the suite's RabbitMQ node, which the broker-outage experiment cuts:
// every open connection is reset and new ones are refused, as when the broker dies, for exactly
// as long as asked (stopping and starting the node itself costs ~25 s of rabbitmqctl and boot on
// this 2-core machine on top of the outage; see RELIABILITY.md).
import { createServer, connect, type Server, type Socket } from 'node:net';

export class TcpRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: number,
  ) {}

  open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect({ host: '127.0.0.1', port: this.target });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined); // the other side's close follows
      }
      client.pipe(upstream).pipe(client);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  /** Refuses new connections and resets the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    await closed;
  }
}
