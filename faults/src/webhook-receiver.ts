// A user's webhook receiver, run by the streams experiment on 127.0.0.1: it checks every
// delivery's signature with its own HMAC-SHA256 (as services/streams/README.md tells receivers
// to: `x-cloud-signature: t=<unix seconds>,v1=<hex HMAC of "<t>.<body>">`), answers 200, and keeps
// what arrived, in arrival order.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One event as a delivery carries it: its stable id, its place in the stream, its type and, for a block, its height. */
export interface ReceivedEvent {
  id: string;
  seq: number;
  type: string;
  height?: number;
  hash?: string;
}

export interface ReceivedDelivery {
  arrivedAt: number;
  deliveryId: string;
  attempt: number;
  events: ReceivedEvent[];
  /** Checked against the stream's secret once it is known (a delivery may beat the creation's answer here). */
  signatureValid(): boolean;
}

/** Receivers refuse a signature time further than this from their clock (the documented replay window). */
const TOLERANCE_SECONDS = 300;

export class WebhookReceiver {
  readonly deliveries: ReceivedDelivery[] = [];
  /** The stream's signing secret, set once the stream is created (its answer shows it once). */
  secret = '';
  private server?: Server;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = JSON.parse(text) as { deliveryId: string; attempt: number; events: ReceivedEvent[] };
        const arrivedAt = Date.now();
        this.deliveries.push({
          arrivedAt,
          deliveryId: body.deliveryId,
          attempt: body.attempt,
          events: body.events,
          signatureValid: () => this.signed(String(request.headers['x-cloud-signature'] ?? ''), text, arrivedAt),
        });
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Every event taken, in arrival order (a redelivered one appears again). */
  events(): ReceivedEvent[] {
    return this.deliveries.flatMap((delivery) => delivery.events);
  }

  private signed(header: string, body: string, arrivedAt: number): boolean {
    const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
    const at = Number(parts.t);
    if (!this.secret || !parts.v1 || !Number.isInteger(at) || Math.abs(arrivedAt / 1000 - at) > TOLERANCE_SECONDS) return false;
    const expected = createHmac('sha256', this.secret).update(`${parts.t}.${body}`).digest();
    const given = Buffer.from(parts.v1, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
