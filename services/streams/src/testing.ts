// Test helpers for the streams service and for tests that run it beside the nodes service
// (`@cloud/streams/testing`). They use dev dependencies (supertest, the nodes service's test
// platform): never import them from production code.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createTestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import type { TestPlatform } from '@cloud/nodes/testing';
import { waitUntil } from '@cloud/accounts/testing';
import type { DeliveryBody, SequencedEvent } from './domain/stream';
import { createStreamsService, loadStreamsConfig, type RunningStreamsService } from './index';

export interface TestStreams {
  service: RunningStreamsService;
  http: ReturnType<typeof request>;
  /** Closes the service and drops its database, once. Call it before the platform's `close`. */
  close(): Promise<void>;
}

/**
 * The streams service as `npm start` builds it, on the platform of `@cloud/nodes/testing`: its
 * accounts service's keys, clock and bus (the shared in-process bus, or its RabbitMQ prefix), and
 * its DATA_DIR (so the node RPC key is the nodes service's), with a fresh database of its own
 * (PostgreSQL when DATABASE_URL is set, PGlite otherwise). Resolves once `/readyz` answers 200.
 */
export async function startTestStreams(platform: TestPlatform, env: Record<string, string> = {}): Promise<TestStreams> {
  const database = await createTestDatabase('streams');
  const config = loadStreamsConfig({
    DATA_DIR: platform.dataDir,
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...platform.busEnv,
    ...env,
  });
  const service = await createStreamsService(config, {
    clock: platform.clock,
    logger: createLogger({ service: 'test', level: 'silent' }),
    keys: platform.keys,
    ...(platform.sharedBus ? { bus: platform.sharedBus } : {}),
    ...(database.url ? {} : { db: database.db }),
  });
  platform.ownBus(service.bus);
  let closing: Promise<void> | undefined;
  const streams: TestStreams = {
    service,
    http: request(service.app),
    close: () =>
      (closing ??= (async () => {
        await service.close();
        await database.destroy();
      })()),
  };
  // As a load balancer would, wait for /readyz: until the token revocations are loaded the API answers 503.
  await waitUntil('the streams service to be ready', async () => (await streams.http.get('/readyz')).status === 200, 20_000, 20);
  return streams;
}

/** One POST a test receiver took. */
export interface ReceivedDelivery {
  body: DeliveryBody;
  headers: IncomingHttpHeaders;
  receivedAt: number;
  /** The status the receiver answered. */
  status: number;
  /** Whether `x-cloud-signature` checked out with the secret the test gave (computed here, not with the service's code). */
  signatureValid: boolean;
}

export interface TestReceiver {
  url: string;
  /** Every POST taken, in arrival order (answered 2xx or not). */
  deliveries: ReceivedDelivery[];
  /** The events of the deliveries answered 2xx, in arrival order (a redelivered one appears again). */
  accepted(): SequencedEvent[];
  /** The secrets signatures are checked with (set it to the stream's once it is created; a rotation adds one). */
  secrets: string[];
  /** What the receiver answers; 200 by default. */
  respond: (delivery: DeliveryBody) => number;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 for tests: it keeps every delivery and checks each signature
 * with its own HMAC-SHA256 over `<t>.<body>`, as a user's receiver would.
 */
export async function startTestReceiver(): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: '',
    deliveries: [],
    secrets: [],
    respond: () => 200,
    accepted: () => receiver.deliveries.filter((each) => each.status < 300).flatMap((each) => each.body.events),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as DeliveryBody;
      const status = receiver.respond(body);
      receiver.deliveries.push({
        body,
        headers: request.headers,
        receivedAt: Date.now(),
        status,
        signatureValid: signedWithOneOf(receiver.secrets, String(request.headers['x-cloud-signature'] ?? ''), text),
      });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'try again');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

function signedWithOneOf(secrets: readonly string[], header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  if (!parts.t || !parts.v1) return false;
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
    const given = Buffer.from(parts.v1!, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
