import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import { DeliveriesRepository } from '../src/data-access/deliveries.repository';
import { toStreamRecord, type StreamRow } from '../src/data-access/stream-record';
import { WebhookClient } from '../src/data-access/webhook.client';
import { StreamDelivery } from '../src/domain/delivery';
import { SecretBox } from '../src/domain/secret-box';
import type { StreamRecord } from '../src/domain/stream';
import { TargetPolicy } from '../src/domain/targets';
import { streamsMigrations, STREAMS_SCHEMA } from '../src/migrations';

interface Received {
  body: { streamId: string; deliveryId: string; attempt: number; events: Array<{ id: string; seq: number; type: string; height: number }> };
  signed: boolean;
}

/** The receiver checks every signature with its own HMAC code, as a user's would. */
function startReceiver(secret: string, now: () => Date) {
  const received: Received[] = [];
  const state = { answer: (_req: IncomingMessage, res: ServerResponse) => void res.writeHead(200).end('ok') };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [t, v1] = String(req.headers['x-cloud-signature'])
        .split(',')
        .map((part) => part.split('=')[1]);
      const expected = createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
      const signed = v1 === expected && Math.abs(now().getTime() / 1000 - Number(t)) <= 300 && req.headers['x-cloud-delivery'] === JSON.parse(raw).deliveryId;
      received.push({ body: JSON.parse(raw), signed });
      state.answer(req, res);
    });
  });
  return { received, state, server };
}

describe('stream delivery', () => {
  let test: TestDatabase;
  let repository: DeliveriesRepository;
  let receiver: ReturnType<typeof startReceiver>;
  let url: string;
  const secrets = new SecretBox(randomBytes(32));
  const secret = 'whsec_test';
  let clock = new Date('2026-11-28T08:00:00Z');
  const settings = { batchEvents: 3, batchBytes: 1024 * 1024, retryBaseMs: 1000, retryMaxMs: 60_000, retryForMs: 24 * 3_600_000 };
  const delivery = (timeoutMs = 5000, more: Partial<typeof settings> = {}) =>
    new StreamDelivery({
      repository,
      client: new WebhookClient(timeoutMs),
      targets: TargetPolicy.fromSetting('loopback'),
      secrets,
      now: () => clock,
      settings: { ...settings, ...more },
      logger: createLogger({ service: 'streams-test', level: 'silent' }),
    });

  beforeAll(async () => {
    test = await createTestDatabase(STREAMS_SCHEMA);
    await migrateToLatest(test.db, STREAMS_SCHEMA, streamsMigrations);
    repository = new DeliveriesRepository(test.db);
    receiver = startReceiver(secret, () => clock);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
    await test.destroy();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.state.answer = (_req, res) => void res.writeHead(200).end('ok');
    clock = new Date(Date.now());
  });

  /** A stream row with `count` pending block events (seqs 1…count). */
  async function streamWith(count: number, target = url): Promise<StreamRecord> {
    const id = `stream-${randomUUID()}`;
    const now = new Date();
    await test.db('streams').insert({
      id,
      user_id: 'user-1',
      node_id: 'node-1',
      name: 's',
      kind: 'blocks',
      url: target,
      secret_sealed: secrets.seal(secret, id),
      next_seq: count + 1,
      created_at: now,
      updated_at: now,
    });
    for (let seq = 1; seq <= count; seq += 1) {
      const event = {
        id: `evt-${randomUUID()}`,
        type: 'block',
        height: 100 + seq,
        hash: `0x${seq}`,
        parentHash: null,
        time: now.toISOString(),
        transactions: 0,
      };
      await test
        .db('stream_events')
        .insert({ stream_id: id, seq, id: event.id, type: 'block', height: event.height, body: JSON.stringify(event), created_at: now });
    }
    return reload(id);
  }
  const reload = async (id: string) => toStreamRecord((await test.db('streams').where({ id }).first()) as StreamRow);
  const eventIds = async (id: string) => await test.db('stream_events').where({ stream_id: id }).orderBy('seq').select('id', 'seq', 'status');
  const deliveredEvents = () => receiver.received.flatMap((r) => r.body.events);

  it('delivers every event in seq order, in batches within the limits, each signed', async () => {
    let stream = await streamWith(7);
    const stored = await eventIds(stream.id);
    const d = delivery();
    const sizes: number[] = [];
    for (;;) {
      const step = await d.deliverDue(stream);
      if (step.delivered === 0) break;
      sizes.push(step.delivered);
      stream = step.stream;
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(receiver.received.map((r) => r.body.events.length)).toEqual([3, 3, 1]);
    expect(receiver.received.every((r) => r.signed)).toBe(true);
    expect(deliveredEvents().map((e) => [e.id, e.seq])).toEqual(stored.map((e) => [e.id, Number(e.seq)]));
    expect(stream.deliveredSeq).toBe(7);
    expect((await eventIds(stream.id)).every((e) => e.status === 'delivered')).toBe(true);
    expect((await repository.log(stream.id, 10)).map((a) => [a.outcome, a.firstSeq, a.lastSeq, a.statusCode])).toEqual([
      ['delivered', 7, 7, 200],
      ['delivered', 4, 6, 200],
      ['delivered', 1, 3, 200],
    ]);
    expect(await repository.counts(stream.id)).toEqual({ pending: 0, dead: 0 });
  });

  it('keeps to the byte limit (one larger event alone)', async () => {
    let stream = await streamWith(3);
    const d = delivery(5000, { batchBytes: 10 });
    while ((await d.deliverDue(stream).then((s) => ((stream = s.stream), s.delivered))) > 0);
    expect(receiver.received.map((r) => r.body.events.map((e) => e.seq))).toEqual([[1], [2], [3]]);
  });

  it('retries 500s with growing delays as rows, then delivers everything in order with the same ids', async () => {
    let stream = await streamWith(4);
    const stored = await eventIds(stream.id);
    receiver.state.answer = (_req, res) => void res.writeHead(500).end('receiver is down');
    const d = delivery();
    const delays: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const step = await d.deliverDue(stream);
      expect(step.delivered).toBe(0);
      stream = step.stream;
      expect(stream.attempts).toBe(i + 1);
      expect(stream.lastError).toBe('HTTP 500: receiver is down');
      delays.push(stream.nextAttemptAt!.getTime() - clock.getTime());
      // not due yet: nothing is sent
      expect((await d.deliverDue(stream)).delivered).toBe(0);
      expect(receiver.received).toHaveLength(i + 1);
      clock = stream.nextAttemptAt!;
    }
    expect(delays[0]).toBeGreaterThanOrEqual(800);
    expect(delays[0]).toBeLessThanOrEqual(1200);
    expect(delays[2]).toBeGreaterThanOrEqual(3200);
    expect(delays[2]).toBeLessThanOrEqual(4800);
    expect(receiver.received.map((r) => r.body.attempt)).toEqual([1, 2, 3]);
    receiver.state.answer = (_req, res) => void res.writeHead(204).end();
    while ((await d.deliverDue(stream).then((s) => ((stream = s.stream), s.delivered))) > 0);
    const ok = receiver.received.slice(3);
    expect(ok.flatMap((r) => r.body.events).map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(ok[0]!.body.attempt).toBe(4);
    expect(receiver.received.every((r) => r.signed)).toBe(true);
    expect(stream).toMatchObject({ deliveredSeq: 4, attempts: 0, failingSince: null, nextAttemptAt: null, lastError: null });
    const log = await repository.log(stream.id, 10);
    expect(log.map((a) => [a.outcome, a.attempt, a.statusCode])).toEqual([
      ['delivered', 1, 204],
      ['delivered', 4, 204],
      ['failed', 3, 500],
      ['failed', 2, 500],
      ['failed', 1, 500],
    ]);
  });

  it('does not follow a redirect, times out a slow receiver, and cuts a big answer at 4 KiB', async () => {
    const stream = await streamWith(1);
    let redirected = 0;
    receiver.state.answer = (req, res) => {
      if (req.url === '/elsewhere') redirected += 1;
      res.writeHead(307, { location: '/elsewhere' }).end();
    };
    const first = await delivery().deliverDue(stream);
    expect(first.stream.lastError).toMatch(/^HTTP 307/);
    expect(redirected).toBe(0);
    expect(receiver.received).toHaveLength(1);

    receiver.state.answer = () => undefined; // never answers
    clock = first.stream.nextAttemptAt!;
    const slow = await delivery(300).deliverDue(first.stream);
    expect(slow.stream.lastError).toBe('no answer within 300 ms');
    expect((await repository.log(stream.id, 1))[0]).toMatchObject({ outcome: 'failed', statusCode: null, error: 'no answer within 300 ms' });

    receiver.state.answer = (_req, res) => void res.writeHead(502).end('x'.repeat(1024 * 1024));
    clock = slow.stream.nextAttemptAt!;
    const big = await delivery().deliverDue(slow.stream);
    expect(big.stream.lastError).toBe(`HTTP 502: ${'x'.repeat(4096)}`);
    expect(big.stream.attempts).toBe(3);
  });

  it('parks a batch failing for retryFor as dead letters, goes on, and replays them with the same ids at the end', async () => {
    let stream = await streamWith(4);
    const stored = await eventIds(stream.id);
    receiver.state.answer = (_req, res) => void res.writeHead(503).end();
    const d = delivery();
    const started = clock;
    stream = (await d.deliverDue(stream)).stream;
    expect(stream.failingSince).toEqual(started);
    clock = new Date(started.getTime() + 24 * 3_600_000 - 1);
    stream = (await d.deliverDue(stream)).stream;
    expect(stream.attempts).toBe(2);
    clock = new Date(Math.max(started.getTime() + 24 * 3_600_000, stream.nextAttemptAt!.getTime()));
    stream = (await d.deliverDue(stream)).stream;
    expect(stream).toMatchObject({ deliveredSeq: 3, attempts: 0, failingSince: null });
    expect(await repository.counts(stream.id)).toEqual({ pending: 1, dead: 3 });
    expect((await repository.log(stream.id, 1))[0]).toMatchObject({ outcome: 'parked', firstSeq: 1, lastSeq: 3 });

    receiver.state.answer = (_req, res) => void res.writeHead(200).end();
    receiver.received.length = 0;
    stream = (await d.deliverDue(stream)).stream;
    expect(deliveredEvents().map((e) => [e.id, e.seq])).toEqual([[stored[3]!.id, 4]]);

    expect((await repository.deadLetters(stream.id, 10)).map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(await repository.replayDeadLetters(stream.id)).toBe(3);
    stream = await reload(stream.id);
    expect(stream.nextSeq).toBe(8);
    while ((await d.deliverDue(stream).then((s) => ((stream = s.stream), s.delivered))) > 0);
    expect(deliveredEvents().map((e) => [e.id, e.seq])).toEqual([
      [stored[3]!.id, 4],
      [stored[0]!.id, 5],
      [stored[1]!.id, 6],
      [stored[2]!.id, 7],
    ]);
    expect(receiver.received.every((r) => r.signed)).toBe(true);
    expect(await repository.counts(stream.id)).toEqual({ pending: 0, dead: 0 });
  });

  it('refuses a target outside the policy at every attempt and logs why; sends a test event outside the order', async () => {
    const refused = await streamWith(1, 'https://10.0.0.5/hook');
    const step = await delivery().deliverDue(refused);
    expect(step.stream.lastError).toBe('target refused: resolves to a private address (10.0.0.5)');
    expect(step.stream.deliveredSeq).toBe(0);

    const stream = await streamWith(2);
    const view = await delivery().test(stream);
    expect(view).toMatchObject({ outcome: 'test', statusCode: 200, error: null, events: 1, firstSeq: null });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.signed).toBe(true);
    expect(receiver.received[0]!.body.events[0]!.type).toBe('test');
    expect((await reload(stream.id)).deliveredSeq).toBe(0);
  });

  it('connects to the checked address whatever the name resolves to now (no DNS rebinding), with the Host of the URL', async () => {
    let host = '';
    receiver.state.answer = (req, res) => void ((host = String(req.headers.host)), res.writeHead(200).end());
    const port = new URL(url).port;
    const body = JSON.stringify({ deliveryId: 'dlv-pin', events: [] });
    const result = await new WebhookClient(5000).post({ url: new URL(`http://hooks.invalid:${port}/hook`), address: '127.0.0.1', family: 4 }, body, {
      'x-cloud-signature': 'none',
      'x-cloud-delivery': 'dlv-pin',
    });
    expect(result).toMatchObject({ statusCode: 200, error: null });
    expect(host).toBe(`hooks.invalid:${port}`);
  });

  it('keeps the last 1000 log rows of a stream', async () => {
    const stream = await streamWith(0);
    const at = new Date();
    await test.db('stream_deliveries').insert(
      Array.from({ length: 1000 }, (_, i) => ({
        stream_id: stream.id,
        delivery_id: `dlv-${i}`,
        attempt: 1,
        events: 1,
        outcome: 'failed',
        latency_ms: 1,
        at,
      })),
    );
    await repository.recordAttempt(stream.id, {
      deliveryId: 'dlv-last',
      attempt: 1,
      firstSeq: 1,
      lastSeq: 1,
      events: 1,
      outcome: 'delivered',
      statusCode: 200,
      latencyMs: 1,
      error: null,
      at,
    });
    expect(Number((await test.db('stream_deliveries').where({ stream_id: stream.id }).count({ n: '*' }).first())!.n)).toBe(1000);
    expect((await repository.log(stream.id, 1))[0]!.deliveryId).toBe('dlv-last');
    expect(await test.db('stream_deliveries').where({ stream_id: stream.id, delivery_id: 'dlv-0' }).first()).toBeUndefined();
  });
});
