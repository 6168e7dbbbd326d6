import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { PASSWORD } from '@cloud/accounts/testing';
import { nodeRpcAuthorization } from '@cloud/node-rpc-auth';
import { bearer, waitUntil } from '@cloud/nodes/testing';
import { isFollowable } from '../src/domain/node-routes';
import {
  alice,
  as,
  bob,
  btc,
  create,
  eth,
  liveCount,
  nodeOf,
  nodes,
  platform,
  receiver,
  refused,
  row,
  streams,
  useStreamsApi,
  type StreamBody,
} from './api-fixture';

// Creating a stream through the API: each refusal (naming the field, nothing stored), another
// user's node, address and topic normalization, a pool, the backfill bound, the limit under racing
// creations; and the streams of a deleted pool, node or user ending (streams.ends).
describe('streams API: creation', () => {
  useStreamsApi();

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
    ['a bad eth address', () => ({ nodeId: eth, url: receiver.url, kind: 'transactions', addresses: ['0x1234'] }), /^body\.addresses: "0x1234" /],
    [
      'too many addresses',
      () => ({ nodeId: eth, url: receiver.url, kind: 'transactions', addresses: ['1', '2', '3', '4'].map((d) => '0x' + d.repeat(40)) }),
      /^body\.addresses: at most 3/,
    ],
    [
      'a bad topic',
      () => ({ nodeId: eth, url: receiver.url, kind: 'transactions', addresses: ['0x' + '1'.repeat(40)], topics: ['0xab'] }),
      /^body\.topics: "0xab" /,
    ],
    [
      'topics on a Bitcoin-family node',
      () => ({ nodeId: btc, url: receiver.url, kind: 'transactions', addresses: ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'], topics: ['0x' + 'a'.repeat(64)] }),
      /^body\.topics: .*Ethereum/,
    ],
    [
      'a bad Bitcoin-family address',
      () => ({ nodeId: btc, url: receiver.url, kind: 'transactions', addresses: ['0x' + '1'.repeat(40)] }),
      /^body\.addresses: "0x1{40}" /,
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
    // The API reads heads through the HeadWatcher, which reuses a read for STREAMS_HEAD_INTERVAL_MS
    // (250 ms): past that, it has read the head of 100 blocks more.
    await sleep(600);
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
