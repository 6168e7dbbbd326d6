import { randomUUID } from 'node:crypto';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '@cloud/nodes/testing';
import { PASSWORD } from '@cloud/accounts/testing';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { isFollowable } from '../src/domain/node-routes';
import { startTestStreams, type TestStreams } from '../src/testing';
import { startReceiver, verifies, type TestReceiver } from './receiver';

interface StreamBody {
  id: string;
  name: string;
  nodeId: string;
  kind: string;
  url: string;
  addresses: string[];
  topics: string[];
  state: string;
  fromHeight: number | null;
  cursor: unknown;
  pendingEvents: number;
  deadLetters: number;
  failing: unknown;
  lastDelivery: Record<string, unknown> | null;
  createdAt: string;
  secret?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const absentStream = 'stream-00000000-0000-4000-8000-000000000000';

// The streams API with client tokens, on the real platform: nodes made through the nodes API (a
// dev eth node runs anvil, btc the dev chain), their routes reaching the streams service over the
// bus, a webhook receiver of the test's own, and the stream ends the nodes and accounts services
// announce.
describe('streams API', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let streams: TestStreams;
  let receiver: TestReceiver;
  let alice: TestUser;
  let bob: TestUser;
  let eth: string;
  let btc: string;

  const as = (user: TestUser) => bearer(user.clientToken);
  const row = (id: string) => streams.service.db('streams').where({ id }).first() as Promise<Record<string, unknown> | undefined>;
  const liveCount = async () => Number(((await streams.service.db('streams').whereNull('deleted_at').count({ n: '*' })) as [{ n: string | number }])[0].n);

  /** A node of the user's through the nodes API, once the streams service has its route. */
  const nodeOf = async (user: TestUser, image: string): Promise<string> => {
    const { id } = (await nodes.http.post('/users/me/nodes').set(as(user)).send({ image }).expect(200)).body as { id: string };
    await waitUntil(`the streams service to know ${id}`, () => streams.service.routes.get(id) !== undefined, 30_000, 20);
    return id;
  };

  const create = (user: TestUser, body: Record<string, unknown>) => streams.http.post('/users/me/streams').set(as(user)).send(body);

  const refused = async (call: PromiseLike<{ status: number; body: unknown }>, status: number, code: string, message: RegExp | string) => {
    const response = await call;
    expect([response.status, response.body]).toEqual([
      status,
      { code, message: typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message) },
    ]);
  };

  beforeAll(async () => {
    platform = await startTestPlatform();
    nodes = await platform.startNodes();
    streams = await startTestStreams(platform, {
      MAX_STREAMS_PER_USER: '4',
      STREAMS_MAX_ADDRESSES: '3',
      STREAMS_MAX_BACKFILL_BLOCKS: '30',
      STREAMS_ALLOW_TARGETS: 'loopback',
    });
    receiver = await startReceiver();
    [alice, bob] = [await platform.user(), await platform.user()];
    [eth, btc] = [await nodeOf(alice, 'eth'), await nodeOf(alice, 'btc')];
  });
  afterAll(async () => {
    await receiver?.close();
    await streams?.close();
    await platform?.close();
  });

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
      expect(receiver.received).toEqual([]);
      await refused(
        streams.http.get('/users/me/streams/stream-1').set(as(alice)),
        400,
        'InvalidInput',
        /^params\.streamId: must be an id of the form stream-<uuid>/,
      );
    });

    it('sends a signed test event to its URL, answers the attempt and logs it', async () => {
      receiver.status = 200;
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
      const [got] = receiver.received.splice(0);
      expect(got!.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'cloud-nodes-streams/1',
        'x-cloud-stream': stream.id,
        'x-cloud-delivery': attempt.deliveryId,
      });
      expect(verifies(got!, stream.secret!)).toBe(true);
      expect(verifies(got!, `${stream.secret!}x`)).toBe(false);
      expect(JSON.parse(got!.body)).toMatchObject({
        streamId: stream.id,
        nodeId: eth,
        kind: 'blocks',
        deliveryId: attempt.deliveryId,
        events: [{ type: 'test' }],
      });

      receiver.status = 500;
      const failed = (await streams.http.post(`/users/me/streams/${stream.id}/test`).set(as(alice)).expect(200)).body as Record<string, unknown>;
      expect(failed).toMatchObject({ outcome: 'test', statusCode: 500, error: expect.stringContaining('500') });
      receiver.received.splice(0);
      receiver.status = 200;

      const log = (await streams.http.get(`/users/me/streams/${stream.id}/deliveries`).set(as(alice)).expect(200)).body as Array<Record<string, unknown>>;
      expect(log).toEqual([failed, attempt]);
      expect((await streams.http.get(`/users/me/streams/${stream.id}/deliveries?limit=1`).set(as(alice)).expect(200)).body).toEqual([failed]);
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toMatchObject({ lastDelivery: failed });
      await refused(streams.http.get(`/users/me/streams/${stream.id}/deliveries?limit=0`).set(as(alice)), 400, 'InvalidInput', 'query.limit');
    });

    it('rotates its secret: the new one shown once, deliveries signed with it', async () => {
      const rotated = (await streams.http.post(`/users/me/streams/${stream.id}/secret`).set(as(alice)).expect(200)).body as StreamBody;
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(stream.secret);
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).not.toHaveProperty('secret');
      await streams.http.post(`/users/me/streams/${stream.id}/test`).set(as(alice)).expect(200);
      const [got] = receiver.received.splice(0);
      expect([verifies(got!, rotated.secret!), verifies(got!, stream.secret!)]).toEqual([true, false]);
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
      // Two events parked after their retry period, and one pending behind them, as delivery leaves them.
      const at = new Date();
      const event = (seq: number, status: string) => {
        const id = `evt-${randomUUID()}`;
        return {
          stream_id: stream.id,
          seq,
          id,
          type: 'block',
          height: 100 + seq,
          body: JSON.stringify({ id, type: 'block', height: 100 + seq }),
          status,
          created_at: at,
        };
      };
      const rows = [event(1, 'dead'), event(2, 'dead'), event(3, 'pending')];
      await streams.service.db('stream_events').insert(rows);
      await streams.service.db('streams').where({ id: stream.id }).update({ next_seq: 4, delivered_seq: 2 });

      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toMatchObject({ pendingEvents: 1, deadLetters: 2 });
      const dead = (await streams.http.get(`/users/me/streams/${stream.id}/dead-letters`).set(as(alice)).expect(200)).body;
      expect(dead).toEqual([
        { id: rows[0]!.id, type: 'block', height: 101, seq: 1 },
        { id: rows[1]!.id, type: 'block', height: 102, seq: 2 },
      ]);
      expect((await streams.http.get(`/users/me/streams/${stream.id}/dead-letters?limit=1`).set(as(alice)).expect(200)).body).toEqual([dead[0]]);

      expect((await streams.http.post(`/users/me/streams/${stream.id}/dead-letters/replay`).set(as(alice)).expect(200)).body).toEqual({ replayed: 2 });
      const events = (await streams.service.db('stream_events').where({ stream_id: stream.id }).orderBy('seq')) as Array<{
        seq: string | number;
        id: string;
        status: string;
      }>;
      expect(events.map((each) => [Number(each.seq), each.id, each.status])).toEqual([
        [3, rows[2]!.id, 'pending'],
        [4, rows[0]!.id, 'pending'],
        [5, rows[1]!.id, 'pending'],
      ]);
      expect(Number((await row(stream.id))!.next_seq)).toBe(6);
      expect((await streams.http.get(`/users/me/streams/${stream.id}`).set(as(alice)).expect(200)).body).toMatchObject({ pendingEvents: 3, deadLetters: 0 });
      expect((await streams.http.post(`/users/me/streams/${stream.id}/dead-letters/replay`).set(as(alice)).expect(200)).body).toEqual({ replayed: 0 });
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

  describe('a creation', () => {
    it.each([
      ['an id that is no node or pool', () => ({ nodeId: 'node-1', url: receiver.url }), /^body\.nodeId: must be an id of the form node-<uuid> or pool-<uuid>/],
      ['a node of no one', () => ({ nodeId: `node-${randomUUID()}`, url: receiver.url }), /^body\.nodeId: no node node-.* of yours$/],
      ['no url', () => ({ nodeId: eth }), /^body\.url:/],
      ['a url that is no URL', () => ({ nodeId: eth, url: 'hooks' }), /^body\.url: must be an absolute URL/],
      ['a private address', () => ({ nodeId: eth, url: 'http://10.0.0.5/hook' }), /^body\.url: .*private.*10\.0\.0\.5/],
      ['the metadata address', () => ({ nodeId: eth, url: 'http://169.254.169.254/latest' }), /^body\.url: .*169\.254\.169\.254/],
      ['credentials in the URL', () => ({ nodeId: eth, url: 'http://me:pw@127.0.0.1/hook' }), /^body\.url: .*credentials/],
      ['an ftp URL', () => ({ nodeId: eth, url: 'ftp://127.0.0.1/hook' }), /^body\.url: .*https/],
      ['an unknown kind', () => ({ nodeId: eth, url: receiver.url, kind: 'logs' }), /^body\.kind: must be one of blocks, transactions/],
      [
        'addresses on a blocks stream',
        () => ({ nodeId: eth, url: receiver.url, addresses: ['0x' + '1'.repeat(40)] }),
        /^body\.addresses: a blocks stream takes no/,
      ],
      ['a transactions stream without addresses', () => ({ nodeId: eth, url: receiver.url, kind: 'transactions' }), /^body\.addresses: .*at least one/],
      ['a bad eth address', () => ({ nodeId: eth, url: receiver.url, kind: 'transactions', addresses: ['0x1234'] }), /^body\.addresses: 0x1234 /],
      [
        'too many addresses',
        () => ({ nodeId: eth, url: receiver.url, kind: 'transactions', addresses: ['1', '2', '3', '4'].map((d) => '0x' + d.repeat(40)) }),
        /^body\.addresses: at most 3/,
      ],
      [
        'a bad topic',
        () => ({ nodeId: eth, url: receiver.url, kind: 'transactions', addresses: ['0x' + '1'.repeat(40)], topics: ['0xab'] }),
        /^body\.topics: 0xab /,
      ],
      [
        'topics on a Bitcoin-family node',
        () => ({ nodeId: btc, url: receiver.url, kind: 'transactions', addresses: ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'], topics: ['0x' + 'a'.repeat(64)] }),
        /^body\.topics: .*Ethereum/,
      ],
      [
        'a bad Bitcoin-family address',
        () => ({ nodeId: btc, url: receiver.url, kind: 'transactions', addresses: ['0x' + '1'.repeat(40)] }),
        /^body\.addresses: 0x1{40} /,
      ],
      ['a negative fromHeight', () => ({ nodeId: eth, url: receiver.url, fromHeight: -1 }), /^body\.fromHeight: must be at least 0/],
      ['an unknown field', () => ({ nodeId: eth, url: receiver.url, secret: 'mine' }), /^body: .*secret/],
    ])('refuses %s with 400 InvalidInput, and makes nothing', async (_what, body, message) => {
      await refused(create(alice, body()), 400, 'InvalidInput', message);
      expect(await liveCount()).toBe(0);
    });

    it("refuses another user's node, naming it", async () => {
      await refused(create(bob, { nodeId: eth, url: receiver.url }), 400, 'InvalidInput', `body.nodeId: no node ${eth} of yours`);
      expect(await liveCount()).toBe(0);
    });

    it('watches transactions of normalized addresses (each once) and topics', async () => {
      const address = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
      const topic = '0x' + 'Ab'.repeat(32);
      const made = (
        await create(alice, { nodeId: eth, url: receiver.url, kind: 'transactions', addresses: [address, address.toLowerCase()], topics: [topic] }).expect(200)
      ).body as StreamBody;
      expect(made).toMatchObject({
        kind: 'transactions',
        addresses: [address.toLowerCase()],
        topics: [topic.toLowerCase()],
        fromHeight: null,
        name: `transactions of ${eth}`,
      });
      expect(await row(made.id)).toMatchObject({
        addresses: JSON.stringify([address.toLowerCase()]),
        topics: JSON.stringify([topic.toLowerCase()]),
        from_height: null,
      });
      const bitcoin = (
        await create(alice, { nodeId: btc, url: receiver.url, kind: 'transactions', addresses: ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'] }).expect(200)
      ).body as StreamBody;
      expect(bitcoin.addresses).toEqual(['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn']);
      for (const id of [made.id, bitcoin.id]) await streams.http.delete(`/users/me/streams/${id}`).set(as(alice)).expect(200);
    });

    it('follows a pool of the caller’s', async () => {
      const pool = (
        await nodes.http
          .post('/users/me/pools')
          .set(as(alice))
          .send({ name: 'eth pool', members: [eth] })
          .expect(200)
      ).body as { id: string };
      await waitUntil('the streams service to know the pool', () => streams.service.routes.get(pool.id) !== undefined, 30_000, 20);
      const made = (await create(alice, { nodeId: pool.id, url: receiver.url }).expect(200)).body as StreamBody;
      expect(made.nodeId).toBe(pool.id);
      await refused(create(bob, { nodeId: pool.id, url: receiver.url }), 400, 'InvalidInput', `no pool ${pool.id} of yours`);

      // The pool deleted: its streams end (streams.ends, pool.deleted).
      await nodes.http.delete(`/users/me/pools/${pool.id}`).set(as(alice)).expect(200);
      await waitUntil('the pool stream to end', async () => (await row(made.id))?.ended_reason === 'pool deleted', 30_000, 50);
      await refused(streams.http.get(`/users/me/streams/${made.id}`).set(as(alice)), 404, 'NotFound', made.id);
    });

    it('backfills at most STREAMS_MAX_BACKFILL_BLOCKS below the head, and only from a node that answers', async () => {
      await waitUntil('the eth node to run', () => isFollowable(streams.service.routes.followTarget(eth)), 60_000, 50);
      const route = streams.service.routes.get(eth)!;
      // Through the node's internal login, as the streams service reads it: 100 blocks at once.
      const rpc = async (method: string, params: unknown[] = []) => {
        const answer = await fetch(route.upstream!, {
          method: 'POST',
          headers: { authorization: nodeRpcAuthorization(platform.rpcKey, eth), 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        return ((await answer.json()) as { result: unknown }).result;
      };
      await rpc('anvil_mine', ['0x64']);
      const head = Number(await rpc('eth_blockNumber'));
      expect(head).toBeGreaterThanOrEqual(100);
      await refused(
        create(alice, { nodeId: eth, url: receiver.url, fromHeight: 0 }),
        400,
        'InvalidInput',
        /^body\.fromHeight: at most 30 blocks below the head \(\d+\)/,
      );
      await refused(
        create(alice, { nodeId: eth, url: receiver.url, fromHeight: head + 1000 }),
        400,
        'InvalidInput',
        `body.fromHeight: ${head + 1000} is above the head`,
      );
      expect(await liveCount()).toBe(0);
      const made = (await create(alice, { nodeId: eth, url: receiver.url, fromHeight: head - 5 }).expect(200)).body as StreamBody;
      expect([made.fromHeight, Number((await row(made.id))!.from_height)]).toEqual([head - 5, head - 5]);
      await streams.http.delete(`/users/me/streams/${made.id}`).set(as(alice)).expect(200);

      // A stopped node's head cannot be read: backfilling waits until it runs; from the head it may start now.
      await nodes.http.post(`/users/me/nodes/${btc}/stop`).set(as(alice)).expect(200);
      await waitUntil('the btc node to stop', () => streams.service.routes.get(btc)?.state === 'stopped', 60_000, 50);
      await refused(
        create(alice, { nodeId: btc, url: receiver.url, fromHeight: 1 }),
        409,
        'Conflict',
        /^body\.fromHeight: the head of node-\S+ cannot be read now \(the node is stopped\)/,
      );
      const fromHead = (await create(alice, { nodeId: btc, url: receiver.url }).expect(200)).body as StreamBody;
      await streams.http.delete(`/users/me/streams/${fromHead.id}`).set(as(alice)).expect(200);
    });

    it('holds the limit of streams per user, also when creations race', async () => {
      const carol = await platform.user();
      const node = await nodeOf(carol, 'eth');
      const answers = await Promise.all(Array.from({ length: 6 }, () => create(carol, { nodeId: node, url: receiver.url })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 403, 403]);
      const over = answers.find((answer) => answer.status === 403)!;
      expect(over.body).toEqual({ code: 'LimitExceeded', message: 'you have 4 streams, the most allowed; delete one first' });
      const mine = (await streams.http.get('/users/me/streams').set(as(carol)).expect(200)).body as StreamBody[];
      expect(mine).toHaveLength(4);
      // A deleted stream no longer counts.
      await streams.http.delete(`/users/me/streams/${mine[0]!.id}`).set(as(carol)).expect(200);
      await create(carol, { nodeId: node, url: receiver.url }).expect(200);

      // The node deleted: its streams end (node.deleted); the user deleted: theirs (revocation.user-deleted).
      const other = await nodeOf(carol, 'eth');
      const kept = (await streams.http.get('/users/me/streams').set(as(carol)).expect(200)).body as StreamBody[];
      await streams.http.delete(`/users/me/streams/${kept[0]!.id}`).set(as(carol)).expect(200);
      const onOther = (await create(carol, { nodeId: other, url: receiver.url }).expect(200)).body as StreamBody;
      await nodes.http.delete(`/users/me/nodes/${node}`).set(as(carol)).expect(200);
      await waitUntil(
        "the deleted node's streams to end",
        async () => {
          const rows = (await streams.service.db('streams').where({ node_id: node }).whereNull('deleted_at')) as unknown[];
          return rows.length === 0;
        },
        60_000,
        100,
      );
      const ended = (await streams.service.db('streams').where({ node_id: node, user_id: carol.id }).select('ended_reason')) as Array<{ ended_reason: string }>;
      expect(new Set(ended.map((each) => each.ended_reason))).toEqual(new Set(['deleted', 'node deleted']));
      expect(await row(onOther.id)).toMatchObject({ deleted_at: null });

      await platform.accounts.http.delete('/users/me').set(bearer(carol.accountToken)).send({ password: PASSWORD }).expect(204);
      await waitUntil('the deleted user’s streams to end', async () => (await row(onOther.id))?.ended_reason === 'user deleted', 60_000, 100);
    });
  });
});
