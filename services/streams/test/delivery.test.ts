import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import { DeliveriesRepository } from '../src/data-access/deliveries.repository';
import { toStreamRecord, type StreamRow } from '../src/data-access/stream-record';
import { WebhookClient } from '../src/data-access/webhook.client';
import { StreamDelivery, type DeliverySettings } from '../src/domain/delivery';
import { SecretBox } from '../src/domain/secret-box';
import type { StreamRecord } from '../src/domain/stream';
import { TargetPolicy } from '../src/domain/targets';
import { streamsMigrations, STREAMS_SCHEMA } from '../src/migrations';
import { startTestReceiver, type TestReceiver } from '../src/testing';

const SECRET = 'whsec_test';
const secrets = new SecretBox(randomBytes(32));
const settings: DeliverySettings = { batchEvents: 3, batchBytes: 1024 * 1024, retryBaseMs: 1000, retryMaxMs: 60_000, retryForMs: 3_600_000 };

describe('stream delivery', () => {
  let test: TestDatabase;
  let repository: DeliveriesRepository;
  let receiver: TestReceiver;
  let clock: Date;
  let streamCount = 0;

  beforeAll(async () => {
    test = await createTestDatabase(STREAMS_SCHEMA);
    await migrateToLatest(test.db, STREAMS_SCHEMA, streamsMigrations);
    repository = new DeliveriesRepository(test.db);
  });
  afterAll(() => test.destroy());
  beforeEach(async () => {
    receiver = await startTestReceiver();
    receiver.secrets = [SECRET];
    clock = new Date('2026-11-28T09:00:00Z');
  });
  afterEach(() => receiver.close());

  const delivery = (overrides: Partial<DeliverySettings> = {}, timeoutMs = 10_000) =>
    new StreamDelivery({
      repository,
      client: new WebhookClient(timeoutMs),
      targets: TargetPolicy.fromSetting('loopback'),
      secrets,
      now: () => clock,
      settings: { ...settings, ...overrides },
      logger: createLogger({ service: 'test', level: 'silent' }),
    });

  /** A stream row with `events` block events pending (seq 1…n). */
  async function stream(events: number, url = receiver.url, bodyPad = ''): Promise<StreamRecord> {
    const id = `stream-${++streamCount}`;
    const now = new Date();
    await test.db('streams').insert({
      id,
      user_id: 'user-1',
      node_id: 'node-1',
      name: 'blocks',
      kind: 'blocks',
      url,
      secret_sealed: secrets.seal(SECRET, id),
      next_seq: events + 1,
      created_at: now,
      updated_at: now,
    });
    if (events > 0) await appendEvents(id, 1, events, bodyPad);
    return fresh(id);
  }
  const appendEvents = (id: string, first: number, count: number, pad = '') =>
    test.db('stream_events').insert(
      Array.from({ length: count }, (_, index) => {
        const seq = first + index;
        const body = { id: `evt-${id}-${seq}`, type: 'block', height: seq, hash: `0x${seq}`, parentHash: null, time: now(), transactions: 0, pad };
        return { stream_id: id, seq, id: body.id, type: 'block', height: seq, body: JSON.stringify(body), created_at: new Date() };
      }),
    );
  const now = () => new Date().toISOString();
  const fresh = async (id: string) => toStreamRecord((await test.db('streams').where({ id }).first()) as StreamRow);
  const statuses = async (id: string) =>
    ((await test.db('stream_events').where({ stream_id: id }).orderBy('seq').select('seq', 'status')) as Array<{ seq: string | number; status: string }>).map(
      (row) => `${Number(row.seq)}:${row.status}`,
    );

  /** deliverDue until nothing more moves (as the worker does), the clock past each retry. */
  async function drain(subject: StreamDelivery, record: StreamRecord): Promise<StreamRecord> {
    let current = record;
    for (;;) {
      const { stream: next, delivered } = await subject.deliverDue(current);
      current = next;
      if (delivered === 0) return current;
    }
  }

  it('delivers every pending event once, in order, in batches of at most batchEvents, signed', async () => {
    const record = await stream(7);
    const after = await drain(delivery(), record);
    expect(receiver.deliveries.map((each) => each.body.events.map((event) => event.seq))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(receiver.deliveries.every((each) => each.signatureValid)).toBe(true);
    const first = receiver.deliveries[0]!;
    expect(first.body).toMatchObject({ streamId: record.id, nodeId: 'node-1', kind: 'blocks', attempt: 1 });
    expect(first.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'cloud-nodes-streams/1',
      'x-cloud-stream': record.id,
      'x-cloud-delivery': first.body.deliveryId,
    });
    expect(first.body.events[0]).toMatchObject({ id: `evt-${record.id}-1`, type: 'block', height: 1, seq: 1 });
    expect(after).toMatchObject({ deliveredSeq: 7, attempts: 0, failingSince: null, nextAttemptAt: null });
    expect(await statuses(record.id)).toEqual([1, 2, 3, 4, 5, 6, 7].map((seq) => `${seq}:delivered`));
    const log = await repository.log(record.id, 10);
    expect(log.map((row) => [row.outcome, row.firstSeq, row.lastSeq, row.events, row.statusCode])).toEqual([
      ['delivered', 7, 7, 1, 200],
      ['delivered', 4, 6, 3, 200],
      ['delivered', 1, 3, 3, 200],
    ]);
    // Nothing pending: nothing sent.
    expect(await delivery().deliverDue(after)).toEqual({ stream: after, delivered: 0 });
    expect(receiver.deliveries).toHaveLength(3);
  });

  it('keeps each body within batchBytes, a larger event alone', async () => {
    const record = await stream(4, receiver.url, 'x'.repeat(600));
    await drain(delivery({ batchEvents: 100, batchBytes: 2000 }), record);
    expect(receiver.deliveries.map((each) => each.body.events.map((event) => event.seq))).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const other = await stream(2, receiver.url, 'x'.repeat(3000));
    receiver.deliveries.length = 0;
    await drain(delivery({ batchEvents: 100, batchBytes: 2000 }), other);
    expect(receiver.deliveries.map((each) => each.body.events.map((event) => event.seq))).toEqual([[1], [2]]);
  });

  it('retries a failing receiver with backoff and loses or reorders nothing when it answers 200 again', async () => {
    const record = await stream(5);
    const subject = delivery();
    receiver.respond = () => 500;
    let current = record;
    for (let failures = 1; failures <= 3; failures += 1) {
      const result = await subject.deliverDue(current);
      current = result.stream;
      expect(result.delivered).toBe(0);
      expect(current).toMatchObject({ attempts: failures, deliveredSeq: 0, failingSince: new Date('2026-11-28T09:00:00Z') });
      expect(current.lastError).toBe('HTTP 500: try again');
      // base · 2^(failures-1) ± 20 %, from the clock of the attempt.
      const wait = current.nextAttemptAt!.getTime() - clock.getTime();
      expect(wait).toBeGreaterThanOrEqual(0.8 * 1000 * 2 ** (failures - 1));
      expect(wait).toBeLessThanOrEqual(1.2 * 1000 * 2 ** (failures - 1));
      // Not due yet: nothing sent.
      expect((await subject.deliverDue(current)).delivered).toBe(0);
      expect(receiver.deliveries).toHaveLength(failures);
      clock = current.nextAttemptAt!;
    }
    receiver.respond = () => 200;
    current = await drain(subject, current);
    expect(receiver.accepted().map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(receiver.deliveries.map((each) => each.body.attempt)).toEqual([1, 2, 3, 4, 1]);
    expect(new Set(receiver.deliveries.map((each) => each.body.deliveryId)).size).toBe(5);
    expect(current).toMatchObject({ deliveredSeq: 5, attempts: 0, failingSince: null, nextAttemptAt: null, lastError: null });
    const log = await repository.log(record.id, 10);
    expect(log.map((row) => [row.outcome, row.attempt, row.statusCode, row.firstSeq, row.lastSeq])).toEqual([
      ['delivered', 1, 200, 4, 5],
      ['delivered', 4, 200, 1, 3],
      ['failed', 3, 500, 1, 3],
      ['failed', 2, 500, 1, 3],
      ['failed', 1, 500, 1, 3],
    ]);
    expect(log[2]!.error).toBe('HTTP 500: try again');
  });

  it('parks a batch failing for retryForMs, goes on, and replays the same ids at the end', async () => {
    const record = await stream(4);
    const subject = delivery({ batchEvents: 2, retryForMs: 60_000 });
    receiver.respond = (body) => (body.events[0]!.seq === 1 ? 500 : 200);
    let { stream: current } = await subject.deliverDue(record);
    expect(current.attempts).toBe(1);
    clock = new Date(clock.getTime() + 59_999);
    current = (await subject.deliverDue(current)).stream;
    expect(current).toMatchObject({ attempts: 2, deliveredSeq: 0 });
    // Due again, and failing for longer than retryForMs: parked.
    clock = current.nextAttemptAt!;
    const parked = await subject.deliverDue(current);
    expect(parked.delivered).toBe(2);
    expect(parked.stream).toMatchObject({ deliveredSeq: 2, attempts: 0, failingSince: null, nextAttemptAt: null });
    current = await drain(subject, parked.stream);
    expect(current.deliveredSeq).toBe(4);
    expect(await statuses(record.id)).toEqual(['1:dead', '2:dead', '3:delivered', '4:delivered']);
    expect((await repository.log(record.id, 10)).map((row) => row.outcome)).toEqual(['delivered', 'parked', 'failed', 'failed']);
    expect(await repository.counts(record.id)).toEqual({ pending: 0, dead: 2 });
    expect((await repository.deadLetters(record.id, 10)).map((event) => [event.id, event.seq])).toEqual([
      [`evt-${record.id}-1`, 1],
      [`evt-${record.id}-2`, 2],
    ]);

    receiver.respond = () => 200;
    expect(await repository.replayDeadLetters(record.id)).toBe(2);
    expect(await repository.counts(record.id)).toEqual({ pending: 2, dead: 0 });
    current = await drain(subject, await fresh(record.id));
    expect(current).toMatchObject({ deliveredSeq: 6, nextSeq: 7 });
    expect(receiver.accepted().map((event) => [event.id, event.seq])).toEqual([
      [`evt-${record.id}-3`, 3],
      [`evt-${record.id}-4`, 4],
      [`evt-${record.id}-1`, 5],
      [`evt-${record.id}-2`, 6],
    ]);
  });

  describe('against receivers that misbehave', () => {
    let server: Server | undefined;
    afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
    async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
      server = createServer(handler);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
    }

    it('does not follow a redirect: a 3xx is a failure', async () => {
      const url = await serve((request, response) => {
        request.resume();
        response.writeHead(307, { location: receiver.url }).end();
      });
      const { stream: after, delivered } = await delivery().deliverDue(await stream(1, url));
      expect(delivered).toBe(0);
      expect(receiver.deliveries).toHaveLength(0);
      expect(after).toMatchObject({ attempts: 1, deliveredSeq: 0, lastError: 'HTTP 307' });
    });

    it('gives up on a receiver slower than the delivery timeout', async () => {
      const url = await serve((request) => request.resume());
      const { stream: after } = await delivery({}, 300).deliverDue(await stream(1, url));
      expect(after).toMatchObject({ attempts: 1, deliveredSeq: 0, lastError: 'timed out' });
      const [row] = await repository.log(after.id, 1);
      expect(row).toMatchObject({ outcome: 'failed', statusCode: null, error: 'timed out' });
      server!.closeAllConnections();
    });

    it('reads at most 4 KiB of an answer', async () => {
      const url = await serve((request, response) => {
        request.resume();
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('y'.repeat(5 * 1024 * 1024));
      });
      const { stream: after } = await delivery().deliverDue(await stream(1, url));
      expect(after.lastError).toBe(`HTTP 500: ${'y'.repeat(4096)}`);
      expect((await repository.log(after.id, 1))[0]!.error).toBe(after.lastError);
    });
  });

  it('connects to the checked address only, Host from the URL (no second lookup to rebind)', async () => {
    const port = new URL(receiver.url).port;
    const url = new URL(`http://rebound.invalid:${port}/in`);
    const outcome = await new WebhookClient(10_000).post({ url, address: '127.0.0.1', family: 4 }, { 'content-type': 'application/json' }, '{"events":[]}');
    expect(outcome).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.deliveries.map((each) => each.headers.host)).toEqual([`rebound.invalid:${port}`]);
  });

  it('refuses a target the policy does not allow, as a failed attempt', async () => {
    const record = await stream(1, receiver.url.replace('127.0.0.1', 'localhost'));
    const strict = new StreamDelivery({
      repository,
      client: new WebhookClient(10_000),
      targets: TargetPolicy.fromSetting(''),
      secrets,
      now: () => clock,
      settings,
      logger: createLogger({ service: 'test', level: 'silent' }),
    });
    const { stream: after } = await strict.deliverDue(record);
    expect(receiver.deliveries).toHaveLength(0);
    expect(after.lastError).toMatch(/^refused target: resolves to a loopback address/);
  });

  it('sends a signed test event outside the order and logs it', async () => {
    const record = await stream(2);
    const view = await delivery().test(record);
    expect(view).toMatchObject({ attempt: 1, firstSeq: null, lastSeq: null, events: 1, outcome: 'test', statusCode: 200, error: null });
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.signatureValid).toBe(true);
    expect(receiver.deliveries[0]!.body.events).toMatchObject([{ type: 'test', seq: 0 }]);
    expect(await fresh(record.id)).toMatchObject({ deliveredSeq: 0 });
    expect(await repository.log(record.id, 5)).toEqual([view]);
  });

  it('keeps the last 1000 attempts of a stream and prunes delivered events only', async () => {
    const record = await stream(1);
    await test.db('stream_deliveries').insert(
      Array.from({ length: 1000 }, (_, index) => ({
        stream_id: record.id,
        delivery_id: `dlv-${index}`,
        attempt: 1,
        events: 1,
        outcome: 'failed',
        latency_ms: 1,
        at: new Date(),
      })),
    );
    await drain(delivery(), record);
    const log = await repository.log(record.id, 2000);
    expect(log).toHaveLength(1000);
    expect(log[0]!.outcome).toBe('delivered');
    expect(log.at(-1)!.deliveryId).toBe('dlv-1');
    await test.db('stream_events').insert({ stream_id: record.id, seq: 2, id: 'evt-dead', type: 'block', body: '{}', status: 'dead', created_at: new Date() });
    await repository.pruneDelivered(new Date(clock.getTime() + 1));
    expect(await statuses(record.id)).toEqual(['2:dead']);
  });
});
