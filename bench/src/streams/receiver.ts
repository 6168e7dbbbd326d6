// The benchmark's webhook receiver on 127.0.0.1: answers 200 at once and notes when each event
// first arrived (by its stable id; a redelivery is not counted again).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BenchEvent {
  id: string;
  seq: number;
  type: string;
  height?: number;
}

export class BenchReceiver {
  /** Event id → when it first arrived (performance.now() milliseconds). */
  readonly arrivals = new Map<string, { at: number; event: BenchEvent }>();
  posts = 0;
  private server?: Server;
  private port = 0;
  private waiting: { count: number; resolve: () => void }[] = [];

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const at = performance.now();
        this.posts += 1;
        const { events } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: BenchEvent[] };
        for (const event of events) if (!this.arrivals.has(event.id)) this.arrivals.set(event.id, { at, event });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        this.waiting = this.waiting.filter((wait) => (this.arrivals.size >= wait.count ? (wait.resolve(), false) : true));
      });
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Resolves once `count` distinct events arrived. */
  received(count: number): Promise<void> {
    if (this.arrivals.size >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The `q` quantile (0–1) of `values` (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
