import { randomUUID } from 'node:crypto';
import { bearer, waitUntil } from '@cloud/nodes/testing';
import { alice, as, bob, create, eth, liveCount, platform, receiver, refused, row, streams, useStreamsApi, UUID, type StreamBody } from './api-fixture';

const absentStream = 'stream-00000000-0000-4000-8000-000000000000';

// The streams API's calls on one stream, with client tokens: who may call, creation with the
// secret shown once, another user's 404, the signed test delivery and the log, rotation, pause and
// resume, changes, dead letters and their replay, the call events, deletion. creation.test.ts has
// creation's checks, the limit, and the ends of streams.
describe('streams API', () => {
  useStreamsApi();

  it('refuses a call without a client token with 401 on every route', async () => {
    const one = `/users/me/streams/${absentStream}`;
    for (const call of [
      streams.http.post('/users/me/streams').send({ nodeId: eth, url: receiver.url }),
      streams.http.get('/users/me/streams'),
      streams.http.get(one),
      streams.http.patch(one).send({ name: 'x' }),
      streams.http.delete(one),
      ...['pause', 'resume', 'secret', 'test', 'dead-letters/replay'].map((action) => streams.http.post(`${one}/${action}`)),
      streams.http.get(`${one}/deliveries`),
      streams.http.get(`${one}/dead-letters`).set(bearer(alice.accountToken)),
    ]) {
      const response = await call;
      expect([response.status, response.body.code]).toEqual([401, 'Unauthorized']);
    }
    expect(await liveCount()).toBe(0);
  });

  describe('a blocks stream', () => {
    let stream: StreamBody;
    beforeAll(async () => {
      const response = await create(alice, { nodeId: eth, url: receiver.url, name: '  eth blocks ' }).expect(200);
      stream = response.body as StreamBody;
    });

    it('is created with its signing secret, shown once and sealed at rest', async () => {
      expect(stream).toEqual({
        id: expect.stringMatching(/^stream-/),
        name: 'eth blocks',
        nodeId: eth,
        kind: 'blocks',
        url: receiver.url,
        addresses: [],
        topics: [],
        state: 'active',
        fromHeight: null,
        cursor: null,
        pendingEvents: 0,
        deadLetters: 0,
        failing: null,
        lastDelivery: null,
        createdAt: expect.stringMatching(/Z$/),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      });
      expect(stream.id.slice('stream-'.length)).toMatch(UUID);
      const stored = await row(stream.id);
      expect(stored).toMatchObject({ user_id: alice.id, node_id: eth, kind: 'blocks', state: 'active', addresses: '[]' });
      expect(String(stored!.secret_sealed)).not.toContain(stream.secret!.slice('whsec_'.length));
      const { secret: _shownOnce, ...rest } = stream;
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toEqual(rest);
      expect((await streams.http.get('/users/me/streams').set(as(alice)).expect(200)).body).toEqual([rest]);
    });

    it("is another user's 404, on every route, and not in their list", async () => {
      const one = `/users/me/streams/${stream.id}`;
      for (const call of [
        streams.http.get(one),
        streams.http.patch(one).send({ name: 'mine now' }),
        streams.http.delete(one),
        ...['pause', 'resume', 'secret', 'test', 'dead-letters/replay'].map((action) => streams.http.post(`${one}/${action}`)),
        streams.http.get(`${one}/deliveries`),
        streams.http.get(`${one}/dead-letters`),
      ]) {
        await refused(call.set(as(bob)), 404, 'NotFound', `no stream ${stream.id} of yours`);
      }
      expect((await streams.http.get('/users/me/streams').set(as(bob)).expect(200)).body).toEqual([]);
      expect(await row(stream.id)).toMatchObject({ name: 'eth blocks', state: 'active', deleted_at: null });
      // No test delivery went out (the worker may be delivering the stream's blocks meanwhile).
      expect(receiver.deliveries.filter((each) => each.body.events.some((event) => event.type === 'test'))).toEqual([]);
      await refused(
        streams.http.get('/users/me/streams/stream-1').set(as(alice)),
        400,
        'InvalidInput',
        /^params\.streamId: must be an id of the form stream-<uuid>/,
      );
    });

    it('sends a signed test event to its URL, answers the attempt and logs it', async () => {
      // Paused, the worker delivers none of the stream's blocks in between (the test delivery goes out anyway).
      await streams.http.post(`/users/me/streams/${stream.id}/pause`).set(as(alice)).expect(200);
      receiver.respond = () => 200;
      receiver.secrets = [stream.secret!];
      const attempt = (await streams.http.post(`/users/me/streams/${stream.id}/test`).set(as(alice)).expect(200)).body as Record<string, unknown>;
      expect(attempt).toEqual({
        deliveryId: expect.stringMatching(/^dlv-/),
        attempt: 1,
        firstSeq: null,
        lastSeq: null,
        events: 1,
        outcome: 'test',
        statusCode: 200,
        latencyMs: expect.any(Number),
        error: null,
        at: expect.stringMatching(/Z$/),
      });
      // The worker delivers the stream's blocks to the same receiver: pick the test's delivery.
      const got = receiver.deliveries.find((each) => each.body.deliveryId === attempt.deliveryId);
      expect(got!.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'cloud-nodes-streams/1',
        'x-cloud-stream': stream.id,
        'x-cloud-delivery': attempt.deliveryId,
      });
      // Checked by the receiver with its own HMAC code.
      expect(got!.signatureValid).toBe(true);
      expect(got!.body).toMatchObject({
        streamId: stream.id,
        nodeId: eth,
        kind: 'blocks',
        deliveryId: attempt.deliveryId,
        events: [{ type: 'test' }],
      });

      receiver.respond = () => 500;
      const failed = (await streams.http.post(`/users/me/streams/${stream.id}/test`).set(as(alice)).expect(200)).body as Record<string, unknown>;
      expect(failed).toMatchObject({ outcome: 'test', statusCode: 500, error: expect.stringContaining('500') });
      receiver.respond = () => 200;

      const log = (await streams.http.get(`/users/me/streams/${stream.id}/deliveries`).set(as(alice)).expect(200)).body as Array<Record<string, unknown>>;
      expect(log.slice(0, 2)).toEqual([failed, attempt]);
      expect((await streams.http.get(`/users/me/streams/${stream.id}/deliveries?limit=1`).set(as(alice)).expect(200)).body).toEqual([failed]);
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toMatchObject({ lastDelivery: failed });
      await refused(streams.http.get(`/users/me/streams/${stream.id}/deliveries?limit=0`).set(as(alice)), 400, 'InvalidInput', 'query.limit');
      await streams.http.post(`/users/me/streams/${stream.id}/resume`).set(as(alice)).expect(200);
    });

    it('rotates its secret: the new one shown once, deliveries signed with it', async () => {
      const rotated = (await streams.http.post(`/users/me/streams/${stream.id}/secret`).set(as(alice)).expect(200)).body as StreamBody;
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(stream.secret);
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).not.toHaveProperty('secret');
      // Not signed with the old secret any more; signed with the new one.
      const signedWith = async (secret: string) => {
        receiver.secrets = [secret];
        const { deliveryId } = (await streams.http.post(`/users/me/streams/${stream.id}/test`).set(as(alice)).expect(200)).body as { deliveryId: string };
        return receiver.deliveries.find((each) => each.body.deliveryId === deliveryId)!.signatureValid;
      };
      expect([await signedWith(stream.secret!), await signedWith(rotated.secret!)]).toEqual([false, true]);
      receiver.secrets = [rotated.secret!];
      stream = { ...stream, secret: rotated.secret! };
    });

    it('pauses and resumes, each once, and resuming retries a waiting batch at once', async () => {
      const paused = (await streams.http.post(`/users/me/streams/${stream.id}/pause`).set(as(alice)).expect(200)).body as StreamBody;
      expect(paused.state).toBe('paused');
      await refused(streams.http.post(`/users/me/streams/${stream.id}/pause`).set(as(alice)), 409, 'Conflict', 'already paused');
      expect(await row(stream.id)).toMatchObject({ state: 'paused' });

      const failingSince = new Date(Date.now() - 60_000);
      await streams.service
        .db('streams')
        .where({ id: stream.id })
        .update({ attempts: 3, failing_since: failingSince, next_attempt_at: new Date(Date.now() + 600_000), last_error: 'HTTP 500' });
      const resumed = (await streams.http.post(`/users/me/streams/${stream.id}/resume`).set(as(alice)).expect(200)).body as StreamBody;
      expect(resumed).toMatchObject({
        state: 'active',
        failing: { since: failingSince.toISOString(), attempts: 3, nextAttemptAt: null, lastError: 'HTTP 500' },
      });
      await refused(streams.http.post(`/users/me/streams/${stream.id}/resume`).set(as(alice)), 409, 'Conflict', 'not paused');
      expect(await row(stream.id)).toMatchObject({ state: 'active', next_attempt_at: null, attempts: 3 });
      await streams.service.db('streams').where({ id: stream.id }).update({ attempts: 0, failing_since: null, last_error: null });
    });

    it('is renamed and pointed at another URL, a refused URL changing nothing', async () => {
      const other = `${receiver.url}/other`;
      const renamed = (await streams.http.patch(`/users/me/streams/${stream.id}`).set(as(alice)).send({ name: 'renamed', url: other }).expect(200)).body;
      expect(renamed).toMatchObject({ id: stream.id, name: 'renamed', url: other });
      await refused(
        streams.http.patch(`/users/me/streams/${stream.id}`).set(as(alice)).send({ url: 'http://10.0.0.5/hook' }),
        400,
        'InvalidInput',
        /^body\.url: .*10\.0\.0\.5/,
      );
      await refused(streams.http.patch(`/users/me/streams/${stream.id}`).set(as(alice)).send({}), 400, 'InvalidInput', 'give name, url or both');
      await refused(streams.http.patch(`/users/me/streams/${stream.id}`).set(as(alice)).send({ kind: 'transactions' }), 400, 'InvalidInput', 'kind');
      expect(await row(stream.id)).toMatchObject({ name: 'renamed', url: other, kind: 'blocks' });
    });

    it('lists, and replays, its dead letters with their ids after what is pending', async () => {
      // Paused (the worker leaves it alone), its events replaced by two parked after their retry
      // period and one pending behind them, as delivery leaves them.
      await streams.http.post(`/users/me/streams/${stream.id}/pause`).set(as(alice)).expect(200);
      await streams.service.db('stream_events').where({ stream_id: stream.id }).delete();
      const base = Number((await row(stream.id))!.next_seq) - 1;
      const at = new Date();
      const event = (seq: number, status: string) => {
        const id = `evt-${randomUUID()}`;
        return {
          stream_id: stream.id,
          seq,
          id,
          type: 'block',
          height: 100 + seq - base,
          body: JSON.stringify({ id, type: 'block', height: 100 + seq - base }),
          status,
          created_at: at,
        };
      };
      const rows = [event(base + 1, 'dead'), event(base + 2, 'dead'), event(base + 3, 'pending')];
      await streams.service.db('stream_events').insert(rows);
      await streams.service
        .db('streams')
        .where({ id: stream.id })
        .update({ next_seq: base + 4, delivered_seq: base + 2 });

      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toMatchObject({ pendingEvents: 1, deadLetters: 2 });
      const dead = (await streams.http.get(`/users/me/streams/${stream.id}/dead-letters`).set(as(alice)).expect(200)).body;
      expect(dead).toEqual([
        { id: rows[0]!.id, type: 'block', height: 101, seq: base + 1 },
        { id: rows[1]!.id, type: 'block', height: 102, seq: base + 2 },
      ]);
      expect((await streams.http.get(`/users/me/streams/${stream.id}/dead-letters?limit=1`).set(as(alice)).expect(200)).body).toEqual([dead[0]]);

      expect((await streams.http.post(`/users/me/streams/${stream.id}/dead-letters/replay`).set(as(alice)).expect(200)).body).toEqual({ replayed: 2 });
      const events = (await streams.service.db('stream_events').where({ stream_id: stream.id }).orderBy('seq')) as Array<{
        seq: string | number;
        id: string;
        status: string;
      }>;
      expect(events.map((each) => [Number(each.seq), each.id, each.status])).toEqual([
        [base + 3, rows[2]!.id, 'pending'],
        [base + 4, rows[0]!.id, 'pending'],
        [base + 5, rows[1]!.id, 'pending'],
      ]);
      expect(Number((await row(stream.id))!.next_seq)).toBe(base + 6);
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toMatchObject({ pendingEvents: 3, deadLetters: 0 });
      expect((await streams.http.post(`/users/me/streams/${stream.id}/dead-letters/replay`).set(as(alice)).expect(200)).body).toEqual({ replayed: 0 });
      await streams.http.post(`/users/me/streams/${stream.id}/resume`).set(as(alice)).expect(200);
    });

    it('records an event of every call, as cloud-streams, naming the stream, at the accounts service', async () => {
      await streams.service.recorder.drain();
      await waitUntil(
        'the streams calls are in the event list',
        async () => {
          const events = (await platform.accounts.http.get('/users/me/events?service=cloud-streams&limit=500').set(bearer(alice.accountToken)).expect(200))
            .body as Array<{ input: { method: string; route: string; resourceId?: string }; output: { httpStatusCode: number } }>;
          return (
            events.some((event) => event.input.route === '/users/me/streams' && event.input.method === 'POST' && event.output.httpStatusCode === 200) &&
            events.some(
              (event) =>
                event.input.route === '/users/me/streams/:streamId/pause' && event.input.resourceId === stream.id && event.output.httpStatusCode === 409,
            )
          );
        },
        30_000,
        100,
      );
    });

    it('is deleted at once, then unknown', async () => {
      expect((await streams.http.delete(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toEqual({ id: stream.id, deleted: true });
      await refused(streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)), 404, 'NotFound', stream.id);
      await refused(streams.http.delete(`/users/me/streams/${stream.id}`).set(as(alice)), 404, 'NotFound', stream.id);
      expect(await row(stream.id)).toMatchObject({ deleted_at: expect.anything(), ended_reason: 'deleted' });
      expect((await streams.http.get('/users/me/streams').set(as(alice)).expect(200)).body).toEqual([]);
    });
  });
});
