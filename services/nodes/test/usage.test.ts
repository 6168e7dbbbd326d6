import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { PASSWORD } from '@cloud/accounts/testing';
import { message, type BusMessage, type messageSchemas, type Payload } from '@cloud/bus';
import { UsageRepository } from '../src/data-access/usage.repository';
import { UsageReports } from '../src/domain/usage-report';
import { bearer, startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '../src/testing';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Report = {
  granularity: string;
  series: { time: string; calls: Record<string, number>; total: number; bytesIn: number; bytesOut: number; cachedCalls: number }[];
  methods: { method: string; calls: Record<string, number>; total: number }[];
  totals: { calls: Record<string, number>; total: number; bytesIn: number; bytesOut: number; cachedCalls: number };
  nodes?: { nodeId: string; total: number; cachedCalls: number }[];
  credentials?: { credentialId: string; name: string | null; kind: 'basic' | 'token' | null; calls: Record<string, number>; total: number }[];
  members?: { nodeId: string; calls: number }[];
};
type Outcome = 'ok' | 'node_error' | 'refused' | 'rate_limited' | 'unauthorized';

// The usage consumer and API on both buses: a message redelivered is counted once.
describe.each([
  ['in-process', false],
  ['RabbitMQ', true],
])('usage over the %s bus', (_name, rabbitmq) => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let owner: TestUser;
  let other: TestUser;
  let nodeId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ rabbitmq });
    nodes = await platform.startNodes();
    [owner, other] = [await platform.user(), await platform.user()];
    nodeId = ((await nodes.http.post('/users/me/nodes').set(bearer(owner.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string }).id;
  }, 120_000);
  afterAll(() => platform?.close());

  const usageMessage = (
    from: number,
    calls: { method: string; outcome: Outcome; calls: number }[],
    bytesIn: number,
    credentials: { credentialId: string; outcome: Outcome; calls: number }[] = [],
  ): BusMessage<'node.usage'> =>
    message('node.usage', {
      proxyId: 'proxy-test',
      from: new Date(from).toISOString(),
      to: new Date(from + 10_000).toISOString(),
      nodes: [
        {
          nodeId,
          userId: owner.id,
          requests: calls.reduce((sum, each) => sum + each.calls, 0),
          blocked: 0,
          bytesIn,
          bytesOut: 2 * bytesIn,
          calls,
          credentials,
          cachedCalls: 0,
          members: [],
        },
      ],
    });

  const report = async (query = '') =>
    (await nodes.http.get(`/users/me/nodes/${nodeId}/usage${query}`).set(bearer(owner.clientToken)).expect(200)).body as Report;

  it('counts a message once however often it comes, in minute and hour buckets', async () => {
    const now = platform.clock();
    const [credential] = (await nodes.http.get(`/users/me/nodes/${nodeId}/credentials`).set(bearer(owner.clientToken)).expect(200)).body as {
      id: string;
      name: string;
    }[];
    const first = usageMessage(
      now - 2 * MINUTE,
      [
        { method: 'eth_blocknumber', outcome: 'ok', calls: 4 },
        { method: 'eth_call', outcome: 'node_error', calls: 1 },
        { method: 'other', outcome: 'refused', calls: 2 },
        { method: 'unread', outcome: 'rate_limited', calls: 3 },
        { method: 'unread', outcome: 'unauthorized', calls: 1 },
      ],
      100,
      // The node's credential, and one removed since (its calls stay, with no name).
      [
        { credentialId: credential!.id, outcome: 'ok', calls: 3 },
        { credentialId: credential!.id, outcome: 'node_error', calls: 1 },
        { credentialId: 'cred-removed', outcome: 'ok', calls: 1 },
      ],
    );
    // A URL token's calls are counted under its credential id, like a Basic credential's.
    const token = (
      await nodes.http.post(`/users/me/nodes/${nodeId}/credentials`).set(bearer(owner.clientToken)).send({ name: 'dapp', kind: 'token' }).expect(200)
    ).body as { id: string };
    const second = usageMessage(now, [{ method: 'eth_blocknumber', outcome: 'ok', calls: 5 }], 50, [
      { credentialId: credential!.id, outcome: 'ok', calls: 3 },
      { credentialId: token.id, outcome: 'ok', calls: 2 },
    ]);
    // The same message three times (a redelivery, a replay), then another: once the other is in, the copies were handled.
    await platform.bus.publish([first]);
    await platform.bus.publish([first, first]);
    await platform.bus.publish([second]);
    await waitUntil('the usage to be stored', async () => (await report()).totals.total >= 16, 20_000, 100);

    const byMinute = await report();
    expect(byMinute.granularity).toBe('minute');
    expect(byMinute.series).toHaveLength(61);
    expect(byMinute.totals).toEqual({
      calls: { ok: 9, node_error: 1, refused: 2, rate_limited: 3, unauthorized: 1 },
      total: 16,
      bytesIn: 150,
      bytesOut: 300,
      cachedCalls: 0,
    });
    expect(byMinute.members).toEqual([]);
    expect(byMinute.methods).toEqual([
      { method: 'eth_blocknumber', calls: { ok: 9, node_error: 0, refused: 0, rate_limited: 0, unauthorized: 0 }, total: 9 },
      { method: 'unread', calls: { ok: 0, node_error: 0, refused: 0, rate_limited: 3, unauthorized: 1 }, total: 4 },
      { method: 'other', calls: { ok: 0, node_error: 0, refused: 2, rate_limited: 0, unauthorized: 0 }, total: 2 },
      { method: 'eth_call', calls: { ok: 0, node_error: 1, refused: 0, rate_limited: 0, unauthorized: 0 }, total: 1 },
    ]);
    expect(byMinute.credentials).toEqual([
      {
        credentialId: credential!.id,
        name: credential!.name,
        kind: 'basic',
        calls: { ok: 6, node_error: 1, refused: 0, rate_limited: 0, unauthorized: 0 },
        total: 7,
      },
      { credentialId: token.id, name: 'dapp', kind: 'token', calls: { ok: 2, node_error: 0, refused: 0, rate_limited: 0, unauthorized: 0 }, total: 2 },
      { credentialId: 'cred-removed', name: null, kind: null, calls: { ok: 1, node_error: 0, refused: 0, rate_limited: 0, unauthorized: 0 }, total: 1 },
    ]);
    const busy = byMinute.series.filter((point) => point.total > 0);
    expect(busy.map((point) => [point.time, point.total, point.bytesIn])).toEqual([
      [new Date(Math.floor((now - 2 * MINUTE) / MINUTE) * MINUTE).toISOString(), 11, 100],
      [new Date(Math.floor(now / MINUTE) * MINUTE).toISOString(), 5, 50],
    ]);

    const byHour = await report('?granularity=hour');
    expect(byHour.series).toHaveLength(25);
    expect(byHour.totals.total).toBe(16);
    const mine = (await nodes.http.get('/users/me/usage').set(bearer(owner.clientToken)).expect(200)).body as Report;
    expect(mine.totals.total).toBe(16);
    expect(mine.nodes).toEqual([expect.objectContaining({ nodeId, total: 16, bytesIn: 150, bytesOut: 300, cachedCalls: 0 })]);
    expect(Number((await nodes.service.db('usage_messages').whereIn('id', [first.id, second.id]).count({ n: '*' }))[0]!.n)).toBe(2);
  });

  it('reports refused calls per method name as the proxy counts them (issue 28), beside other and unread', async () => {
    // A node of its own, so the other tests' totals stay as they are.
    const refusing = ((await nodes.http.post('/users/me/nodes').set(bearer(owner.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string }).id;
    const calls: { method: string; outcome: Outcome; calls: number }[] = [
      { method: 'eth_blocknumber', outcome: 'ok', calls: 1 },
      { method: 'eth_sign', outcome: 'refused', calls: 4 },
      { method: 'personal_*', outcome: 'refused', calls: 3 },
      { method: 'eth_getlogs', outcome: 'refused', calls: 2 },
      { method: 'eth_getlogs', outcome: 'rate_limited', calls: 1 },
      { method: 'other', outcome: 'refused', calls: 2 },
      { method: 'unread', outcome: 'unauthorized', calls: 1 },
    ];
    const sent = message('node.usage', {
      proxyId: 'proxy-test',
      from: new Date(platform.clock() - 5_000).toISOString(),
      to: new Date(platform.clock()).toISOString(),
      nodes: [
        { nodeId: refusing, userId: owner.id, requests: 14, blocked: 11, bytesIn: 10, bytesOut: 20, calls, credentials: [], cachedCalls: 0, members: [] },
      ],
    });
    await platform.bus.publish([sent]);
    const read = async () => (await nodes.http.get(`/users/me/nodes/${refusing}/usage`).set(bearer(owner.clientToken)).expect(200)).body as Report;
    await waitUntil('the usage to be stored', async () => (await read()).totals.total === 14, 20_000, 100);
    const outcomes = (counted: Partial<Record<Outcome, number>>) => ({ ok: 0, node_error: 0, refused: 0, rate_limited: 0, unauthorized: 0, ...counted });
    // Most called first, ties by name: every refused method by its own name.
    expect((await read()).methods).toEqual([
      { method: 'eth_sign', calls: outcomes({ refused: 4 }), total: 4 },
      { method: 'eth_getlogs', calls: outcomes({ refused: 2, rate_limited: 1 }), total: 3 },
      { method: 'personal_*', calls: outcomes({ refused: 3 }), total: 3 },
      { method: 'other', calls: outcomes({ refused: 2 }), total: 2 },
      { method: 'eth_blocknumber', calls: outcomes({ ok: 1 }), total: 1 },
      { method: 'unread', calls: outcomes({ unauthorized: 1 }), total: 1 },
    ]);
  });

  it("counts cached calls, and a pool's calls per member under the pool's id, once; an older proxy's message without them too", async () => {
    const now = platform.clock();
    const served = ((await nodes.http.post('/users/me/nodes').set(bearer(owner.clientToken)).send({ image: 'eth' }).expect(200)).body as { id: string }).id;
    // A pool's id is no node's: its usage is stored for its owner all the same, as is a member removed since.
    const poolId = `pool-${randomUUID()}`;
    const removedMember = `node-${randomUUID()}`;
    const entry = (
      id: string,
      calls: { method: string; outcome: Outcome; calls: number }[],
      cachedCalls: number,
      members: { nodeId: string; calls: number }[],
    ) => ({
      nodeId: id,
      userId: owner.id,
      requests: calls.reduce((sum, each) => sum + each.calls, 0),
      blocked: 0,
      bytesIn: 10,
      bytesOut: 20,
      calls,
      credentials: [],
      cachedCalls,
      members,
    });
    const interval = (from: number) => ({ proxyId: 'proxy-test', from: new Date(from).toISOString(), to: new Date(from + 10_000).toISOString() });
    const first = message('node.usage', {
      ...interval(now - MINUTE),
      nodes: [
        entry(served, [{ method: 'eth_chainid', outcome: 'ok', calls: 6 }], 4, []),
        entry(
          poolId,
          [
            { method: 'eth_blocknumber', outcome: 'ok', calls: 10 },
            { method: 'eth_call', outcome: 'node_error', calls: 1 },
          ],
          3,
          // A member twice in one entry is added up.
          [
            { nodeId: served, calls: 5 },
            { nodeId: removedMember, calls: 2 },
            { nodeId: served, calls: 1 },
          ],
        ),
      ],
    });
    const second = message('node.usage', {
      ...interval(now),
      nodes: [
        entry(poolId, [{ method: 'eth_blocknumber', outcome: 'ok', calls: 4 }], 4, []),
        entry(served, [{ method: 'eth_chainid', outcome: 'ok', calls: 1 }], 0, []),
      ],
    });
    // What a proxy from before issue 31 sends: neither field (the schema's input allows that; the bus carries it as JSON).
    const { cachedCalls: _cached, members: _members, ...older } = entry(served, [{ method: 'eth_getbalance', outcome: 'ok', calls: 2 }], 0, []);
    const olderPayload: z.input<(typeof messageSchemas)['node.usage']> = { ...interval(now), nodes: [older] };
    const third = message('node.usage', olderPayload as Payload<'node.usage'>);
    await platform.bus.publish([first]);
    await platform.bus.publish([first, second]);
    await platform.bus.publish([third]);

    const reports = new UsageReports({ usage: new UsageRepository(nodes.service.db), clock: platform.clock });
    const poolReport = (query = {}) => reports.endpointReport(poolId, new Map(), query);
    const nodeReport = async (query = '') =>
      (await nodes.http.get(`/users/me/nodes/${served}/usage${query}`).set(bearer(owner.clientToken)).expect(200)).body as Report;
    await waitUntil('the usage to be stored', async () => (await nodeReport()).totals.total >= 9 && (await poolReport()).totals.total >= 15, 20_000, 100);

    const ok = (calls: number, nodeError = 0) => ({ ok: calls, node_error: nodeError, refused: 0, rate_limited: 0, unauthorized: 0 });
    const pool = await poolReport();
    expect(pool.totals).toEqual({ calls: ok(14, 1), total: 15, bytesIn: 20, bytesOut: 40, cachedCalls: 7 });
    expect(pool.members).toEqual([
      { nodeId: served, calls: 6 },
      { nodeId: removedMember, calls: 2 },
    ]);
    expect(pool.series.filter((point) => point.total > 0).map((point) => [point.time, point.total, point.cachedCalls])).toEqual([
      [new Date(Math.floor((now - MINUTE) / MINUTE) * MINUTE).toISOString(), 11, 3],
      [new Date(Math.floor(now / MINUTE) * MINUTE).toISOString(), 4, 4],
    ]);
    const poolByHour = await poolReport({ granularity: 'hour' });
    expect([poolByHour.totals.total, poolByHour.totals.cachedCalls, poolByHour.members]).toEqual([15, 7, pool.members]);

    // The member's own report has the calls made to it, not those it served for the pool; the older message counted with none cached.
    const node = await nodeReport();
    expect(node.totals).toEqual({ calls: ok(9), total: 9, bytesIn: 30, bytesOut: 60, cachedCalls: 4 });
    expect(node.methods.map((each) => [each.method, each.total])).toEqual([
      ['eth_chainid', 7],
      ['eth_getbalance', 2],
    ]);
    expect(node.members).toEqual([]);
    expect((await nodeReport('?granularity=hour')).totals.cachedCalls).toBe(4);

    // The owner's report has the pool beside the nodes, its cached calls in the totals.
    const mine = (await nodes.http.get('/users/me/usage').set(bearer(owner.clientToken)).expect(200)).body as Report;
    expect(mine.nodes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ nodeId: poolId, total: 15, cachedCalls: 7 }),
        expect.objectContaining({ nodeId: served, total: 9, cachedCalls: 4 }),
      ]),
    );
    expect(mine.totals.cachedCalls).toBe(11);
    // Stored once: two members in a minute and an hour bucket.
    const stored = (await nodes.service
      .db('usage_member_calls')
      .where({ node_id: poolId, user_id: owner.id })
      .orderBy(['granularity', 'member_id'])
      .select('granularity', 'member_id', 'calls')) as { granularity: string; member_id: string; calls: unknown }[];
    expect(stored.map((row) => [row.granularity, row.member_id, Number(row.calls)])).toEqual(
      [
        ['hour', removedMember, 2],
        ['hour', served, 6],
        ['minute', removedMember, 2],
        ['minute', served, 6],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1]))),
    );
  });

  it("answers 404 for another user's node, and that user sees none of it", async () => {
    const refused = await nodes.http.get(`/users/me/nodes/${nodeId}/usage`).set(bearer(other.clientToken)).expect(404);
    expect(refused.body).toMatchObject({ code: 'NotFound' });
    const theirs = (await nodes.http.get('/users/me/usage').set(bearer(other.clientToken)).expect(200)).body as Report;
    expect(theirs.totals.total).toBe(0);
    expect(theirs.nodes).toEqual([]);
    await nodes.http.get(`/users/me/nodes/${nodeId}/usage`).expect(401);
  });

  it('refuses bad ranges and granularities with 400 naming the field', async () => {
    const bad = async (query: string, field: string) => {
      const answer = await nodes.http.get(`/users/me/nodes/${nodeId}/usage${query}`).set(bearer(owner.clientToken)).expect(400);
      expect(answer.body).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining(field) });
    };
    await bad('?granularity=day', 'query.granularity');
    await bad('?from=yesterday', 'query.from');
    await bad('?to=2026-13-01T00:00:00Z', 'query.to');
    await bad('?from=2026-11-25T10:00:00Z&to=2026-11-25T09:00:00Z', 'query.from');
    await bad('?from=2026-11-01T00:00:00Z&to=2026-11-03T00:00:00Z&granularity=minute', 'query.from');
    await bad('?limit=3', 'query');
    const week = await report('?from=2026-11-01T00:00:00Z&to=2026-11-08T00:00:00Z&granularity=hour');
    expect(week.series).toHaveLength(168);
  });

  it('deletes buckets and message ids past their retention, keeping recent ones', async () => {
    const now = platform.clock();
    const row = (granularity: string, age: number, method: string) => ({
      granularity,
      bucket_start: new Date(now - age),
      node_id: nodeId,
      user_id: owner.id,
      method,
      outcome: 'ok',
      calls: 1,
    });
    const db = nodes.service.db;
    await db('usage_calls').insert([
      row('minute', 2 * DAY, 'old_minute'),
      row('minute', 2 * HOUR, 'recent_minute'),
      row('hour', 100 * DAY, 'old_hour'),
      row('hour', 80 * DAY, 'recent_hour'),
    ]);
    await db('usage_traffic').insert({
      granularity: 'hour',
      bucket_start: new Date(now - 100 * DAY),
      node_id: nodeId,
      user_id: owner.id,
      requests: 1,
      bytes_in: 1,
      bytes_out: 1,
    });
    const credentialRow = (granularity: string, age: number, credentialId: string) => {
      const { method: _method, ...bucket } = row(granularity, age, '');
      return { ...bucket, credential_id: credentialId };
    };
    await db('usage_credential_calls').insert([credentialRow('minute', 2 * DAY, 'cred-old'), credentialRow('hour', 80 * DAY, 'cred-recent')]);
    // A pool's calls per member, under the same retention.
    const poolId = `pool-${randomUUID()}`;
    const memberRow = (granularity: string, age: number, memberId: string) => {
      const { method: _method, outcome: _outcome, ...bucket } = row(granularity, age, '');
      return { ...bucket, node_id: poolId, member_id: memberId };
    };
    await db('usage_member_calls').insert([
      memberRow('minute', 2 * DAY, 'node-old-minute'),
      memberRow('minute', 2 * HOUR, 'node-recent-minute'),
      memberRow('hour', 100 * DAY, 'node-old-hour'),
      memberRow('hour', 80 * DAY, 'node-recent-hour'),
    ]);
    await db('usage_messages').insert([
      { id: 'msg-old', received_at: new Date(now - 2 * DAY) },
      { id: 'msg-recent', received_at: new Date(now - HOUR) },
    ]);

    await nodes.service.usageRetention.run();
    const methods = (
      await db('usage_calls').whereIn('method', ['old_minute', 'recent_minute', 'old_hour', 'recent_hour']).orderBy('method').select('method')
    ).map((each: { method: string }) => each.method);
    expect(methods).toEqual(['recent_hour', 'recent_minute']);
    expect(
      await db('usage_traffic')
        .where('bucket_start', '<', new Date(now - 90 * DAY))
        .select('node_id'),
    ).toEqual([]);
    expect(
      (await db('usage_credential_calls').whereIn('credential_id', ['cred-old', 'cred-recent']).select('credential_id')).map(
        (each: { credential_id: string }) => each.credential_id,
      ),
    ).toEqual(['cred-recent']);
    expect((await db('usage_messages').whereIn('id', ['msg-old', 'msg-recent']).select('id')).map((each: { id: string }) => each.id)).toEqual(['msg-recent']);
    expect(
      (await db('usage_member_calls').where({ node_id: poolId }).orderBy('member_id').select('member_id')).map((each: { member_id: string }) => each.member_id),
    ).toEqual(['node-recent-hour', 'node-recent-minute']);

    // A message older than the minute retention could not be told from one counted and forgotten: dropped.
    const before = (await report('?granularity=hour&from=' + new Date(now - 3 * DAY).toISOString())).totals.total;
    const late = usageMessage(now - 2 * DAY, [{ method: 'eth_call', outcome: 'ok', calls: 7 }], 1);
    const marker = usageMessage(now, [{ method: 'eth_chainid', outcome: 'ok', calls: 1 }], 1);
    await platform.bus.publish([late, marker]);
    await waitUntil('the marker to be stored', async () => (await report()).methods.some((each) => each.method === 'eth_chainid'), 20_000, 100);
    expect((await report('?granularity=hour&from=' + new Date(now - 3 * DAY).toISOString())).totals.total).toBe(before + 1);
  });

  it("forgets the usage of a deleted user, keeping other users'", async () => {
    const theirs = (
      (await nodes.http.post('/users/me/nodes').set(bearer(other.clientToken)).send({ image: 'eth', jwt: true }).expect(200)).body as { id: string }
    ).id;
    await platform.bus.publish([
      message('node.usage', {
        proxyId: 'proxy-test',
        from: new Date(platform.clock()).toISOString(),
        to: new Date(platform.clock() + 10_000).toISOString(),
        nodes: [
          {
            nodeId: theirs,
            userId: other.id,
            requests: 1,
            blocked: 0,
            bytesIn: 1,
            bytesOut: 1,
            calls: [{ method: 'eth_chainid', outcome: 'ok', calls: 1 }],
            credentials: [],
            cachedCalls: 0,
            members: [],
          },
        ],
      }),
    ]);
    const usageOf = async (userId: string) => Number((await nodes.service.db('usage_calls').where({ user_id: userId }).count({ n: '*' }))[0]!.n);
    await waitUntil("the other user's usage", async () => (await usageOf(other.id)) > 0, 20_000, 100);
    expect(await usageOf(owner.id)).toBeGreaterThan(0);

    await platform.accounts.http.delete('/users/me').set(bearer(owner.accountToken)).send({ password: PASSWORD }).expect(204);
    await waitUntil("the deleted user's usage to go", async () => (await usageOf(owner.id)) === 0, 20_000, 100);
    expect(Number((await nodes.service.db('usage_traffic').where({ user_id: owner.id }).count({ n: '*' }))[0]!.n)).toBe(0);
    // A pool's usage per member goes with its owner too.
    expect(Number((await nodes.service.db('usage_member_calls').where({ user_id: owner.id }).count({ n: '*' }))[0]!.n)).toBe(0);
    // Its one call, in a minute bucket and an hour bucket.
    expect(await usageOf(other.id)).toBe(2);
  });
});
