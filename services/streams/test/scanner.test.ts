import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { RouteSync } from '@cloud/bus';
import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import { startTestPlatform, waitUntil, type TestNodes, type TestPlatform, type TestUser } from '@cloud/nodes/testing';
import { nodeRpcFor, type NodeRpc } from '../src/data-access/node-rpc.client';
import { ScanRepository } from '../src/data-access/scan.repository';
import { toStreamRecord, type StreamRow } from '../src/data-access/stream-record';
import { HeadWatcher } from '../src/domain/head-watcher';
import { isFollowable, NodeRoutes, type FollowTarget } from '../src/domain/node-routes';
import { StreamScanner } from '../src/domain/scanner';
import type { StreamRecord } from '../src/domain/stream';
import { streamsMigrations, STREAMS_SCHEMA } from '../src/migrations';

// Private key 1 (whose public key is the curve's generator), compressed, as a regtest WIF.
const GENERATOR_KEY_WIF = base58Check(Buffer.concat([Buffer.from([0xef]), Buffer.alloc(31), Buffer.from([1, 1])]));

function base58Check(payload: Buffer): string {
  const sha = (data: Buffer) => createHash('sha256').update(data).digest();
  const bytes = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (n > 0n) {
    text = alphabet[Number(n % 58n)]! + text;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** A stored event's body as the test reads it. */
type StoredEvent = Record<string, unknown> & {
  type: string;
  height?: number;
  hash?: string;
  parentHash?: string | null;
  matched?: string[];
  dropped?: unknown[];
  added?: unknown[];
};

const logger = createLogger({ service: 'scanner-test', level: 'silent' });
const TOPIC = `0x${'5'.repeat(64)}`;
// Runtime code emitting LOG1(TOPIC) with no data on every call, behind init code returning it.
const LOGGER_CONTRACT = `0x6027600c60003960276000f3${'7f'}${TOPIC.slice(2)}60006000a100`;

// The scanner against real nodes the platform runs (anvil for eth, litecoind for ltc), read
// through their internal login, with the stream's rows in a real database.
describe('the stream scanner on real nodes', () => {
  let platform: TestPlatform;
  let nodes: TestNodes;
  let user: TestUser;
  let test: TestDatabase;
  let routeSync: RouteSync;
  const routes = new NodeRoutes();
  let scanner: StreamScanner;
  let rpcFor: (target: FollowTarget) => NodeRpc;

  beforeAll(async () => {
    platform = await startTestPlatform();
    // Blocks come when the test mines them.
    nodes = await platform.startNodes({ LOCAL_BLOCK_INTERVAL_SECONDS: '3600' });
    user = await platform.user();
    routeSync = new RouteSync({ bus: platform.bus, table: routes, name: 'streams-test.routes', logger, resyncIntervalMs: 60_000 });
    await routeSync.start();
    test = await createTestDatabase(STREAMS_SCHEMA);
    await migrateToLatest(test.db, STREAMS_SCHEMA, streamsMigrations);
    rpcFor = (target) => nodeRpcFor(target, platform.rpcKey, 10_000);
    scanner = new StreamScanner({ repository: new ScanRepository(test.db), rpcFor, heads: new HeadWatcher({ rpcFor, maxAgeMs: 0 }), scanBlocks: 3, logger });
  }, 180_000);
  afterAll(async () => {
    await routeSync?.stop();
    await test?.destroy();
    await platform?.close();
  });

  const createNode = async (image: string): Promise<{ target: FollowTarget; rpc: NodeRpc }> => {
    const created = await nodes.http.post('/users/me/nodes').set('authorization', `Bearer ${user.clientToken}`).send({ image }).expect(200);
    const id = (created.body as { id: string }).id;
    await waitUntil(`node ${id} to be followable`, () => isFollowable(routes.followTarget(id)), 90_000, 100);
    const target = routes.followTarget(id) as FollowTarget;
    const rpc = rpcFor(target);
    await waitUntil(`node ${id} to answer`, () => rpc(image === 'eth' ? 'eth_blockNumber' : 'getblockcount', []).then(() => true), 30_000, 100);
    return { target, rpc };
  };

  const insertStream = async (nodeId: string, kind: 'blocks' | 'transactions', addresses: string[] = [], topics: string[] = []): Promise<StreamRecord> => {
    const now = new Date();
    const id = `stream-${randomUUID()}`;
    await test.db('streams').insert({
      id,
      user_id: user.id,
      node_id: nodeId,
      name: kind,
      kind,
      url: 'https://hooks.example.com/in',
      addresses: JSON.stringify(addresses),
      topics: JSON.stringify(topics),
      secret_sealed: 'k.iv.tag.ct',
      created_at: now,
      updated_at: now,
    });
    return toStreamRecord((await test.db('streams').where({ id }).first()) as StreamRow);
  };

  /** Scans until the stream is at the node's head; the stream as it then is. */
  const scanToHead = async (stream: StreamRecord, target: FollowTarget): Promise<StreamRecord> => {
    let current = stream;
    await waitUntil(
      'the stream to reach the head',
      async () => {
        const result = await scanner.scan(current, target);
        current = result.stream;
        return result.caughtUp;
      },
      60_000,
      0,
    );
    return current;
  };

  const eventsOf = async (streamId: string) => {
    const rows = (await test.db('stream_events').where({ stream_id: streamId }).orderBy('seq')) as Array<{
      seq: string | number;
      id: string;
      type: string;
      body: string;
    }>;
    return rows.map((row) => ({ seq: Number(row.seq), ...(JSON.parse(row.body) as StoredEvent) }));
  };

  describe('eth (anvil)', () => {
    let target: FollowTarget;
    let rpc: NodeRpc;
    const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
    const blockNumber = async () => Number.parseInt((await rpc('eth_blockNumber', [])) as string, 16);
    const hashAt = async (height: number) => ((await rpc('eth_getBlockByNumber', [`0x${height.toString(16)}`, false])) as { hash: string }).hash;

    beforeAll(async () => {
      ({ target, rpc } = await createNode('eth'));
    }, 120_000);

    it('delivers every block from the head in order, then one reorg event naming the dropped and added blocks, and the new blocks', async () => {
      await mine(2);
      let stream = await insertStream(target.nodeId, 'blocks');
      const first = await blockNumber();
      stream = await scanToHead(stream, target);
      expect(stream.cursor).toEqual({ height: first, hash: await hashAt(first) });
      await mine(5);
      stream = await scanToHead(stream, target);
      let events = await eventsOf(stream.id);
      expect(events.map((event) => [event.seq, event.type, event.height])).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i + 1, 'block', first + i]));
      for (const [i, event] of events.entries()) {
        expect(event).toMatchObject({ id: expect.stringMatching(/^evt-/), hash: await hashAt(first + i), time: expect.stringMatching(/Z$/), transactions: 0 });
        if (i > 0) expect(event.parentHash).toBe(events[i - 1]!.hash);
      }
      expect(stream.nextSeq).toBe(7);
      // At the head: nothing more.
      expect(await scanner.scan(stream, target)).toEqual({ stream, appended: 0, caughtUp: true });

      const head = await blockNumber();
      const dropped = [head - 1, head].map((height) => ({ height, hash: events.find((event) => event.height === height)!.hash }));
      await rpc('anvil_reorg', [2, []]);
      stream = await scanToHead(stream, target);
      events = await eventsOf(stream.id);
      const added = [
        { height: head - 1, hash: await hashAt(head - 1) },
        { height: head, hash: await hashAt(head) },
      ];
      expect(added.map((block) => block.hash)).not.toContain(dropped[1]!.hash);
      expect(events.slice(6).map(({ seq, type, height, hash }) => ({ seq, type, height, hash }))).toEqual([
        { seq: 7, type: 'reorg', height: undefined, hash: undefined },
        { seq: 8, type: 'block', height: head - 1, hash: added[0]!.hash },
        { seq: 9, type: 'block', height: head, hash: added[1]!.hash },
      ]);
      expect(events[6]).toMatchObject({ forkHeight: head - 2, dropped, added });
      // The kept chain is the new one.
      const kept = (await test.db('stream_blocks').where({ stream_id: stream.id }).orderBy('height')) as Array<{ height: string; hash: string }>;
      expect(kept.slice(-2).map((row) => row.hash)).toEqual(added.map((block) => block.hash));
    }, 120_000);

    it('finds a transfer to a watched address and a log of a watched contract with a watched topic', async () => {
      const [sender] = (await rpc('eth_accounts', [])) as string[];
      const deploy = (await rpc('eth_sendTransaction', [{ from: sender, data: LOGGER_CONTRACT }])) as string;
      await mine(1);
      const contract = ((await rpc('eth_getTransactionReceipt', [deploy])) as { contractAddress: string }).contractAddress.toLowerCase();
      const watched = `0x${randomBytes(20).toString('hex')}`;
      let stream = await insertStream(target.nodeId, 'transactions', [watched, contract], [TOPIC]);
      stream = await scanToHead(stream, target);
      const payment = (await rpc('eth_sendTransaction', [{ from: sender, to: watched, value: '0xde0b6b3a7640000' }])) as string;
      const call = (await rpc('eth_sendTransaction', [{ from: sender, to: contract }])) as string;
      await rpc('eth_sendTransaction', [{ from: sender, to: `0x${randomBytes(20).toString('hex')}`, value: '0x1' }]);
      await mine(1);
      const height = await blockNumber();
      stream = await scanToHead(stream, target);
      const events = await eventsOf(stream.id);
      // The head block at the first scan held the deployment only: nothing of the stream's.
      expect(events.map((event) => [event.type, event.hash, event.matched])).toEqual(
        expect.arrayContaining([
          ['transaction', payment, ['to']],
          ['transaction', call, ['to', 'log']],
        ]),
      );
      expect(events).toHaveLength(2);
      expect(events.find((event) => event.hash === payment)).toMatchObject({
        family: 'ethereum',
        height,
        blockHash: await hashAt(height),
        from: sender!.toLowerCase(),
        to: watched,
        value: '1000000000000000000',
        logs: [],
      });
      expect(events.find((event) => event.hash === call)).toMatchObject({
        logs: [{ address: contract, topics: [TOPIC], data: '0x', logIndex: expect.any(Number) }],
      });
    }, 120_000);
    it('commits nothing for a stale record (another scan moved the cursor), and reads a head once for callers at once', async () => {
      let stream = await scanToHead(await insertStream(target.nodeId, 'blocks'), target);
      await mine(2);
      const stale = stream;
      stream = (await scanner.scan(stream, target)).stream;
      const before = await eventsOf(stream.id);
      const again = await scanner.scan(stale, target);
      expect(again).toEqual({ stream: expect.objectContaining({ cursor: stream.cursor, nextSeq: stream.nextSeq }), appended: 0, caughtUp: false });
      expect(await eventsOf(stream.id)).toEqual(before);
      expect(before.map((event) => event.seq)).toEqual([1, 2, 3]);

      let reads = 0;
      const heads = new HeadWatcher({ rpcFor: (each) => (method, params) => ((reads += 1), rpcFor(each)(method, params)), maxAgeMs: 60_000 });
      const seen = await Promise.all([heads.headOf(target), heads.headOf(target), heads.headOf(target)]);
      expect(await heads.headOf(target)).toEqual(seen[0]);
      expect(seen).toEqual([seen[0], seen[0], seen[0]]);
      expect(reads).toBe(1);
    }, 120_000);
  });

  describe('ltc (litecoind)', () => {
    let target: FollowTarget;
    let rpc: NodeRpc;
    const mine = (blocks: number, descriptor = 'raw(51)') => rpc('generatetodescriptor', [blocks, descriptor]);
    const height = async () => (await rpc('getblockcount', [])) as number;

    beforeAll(async () => {
      ({ target, rpc } = await createNode('ltc'));
    }, 120_000);

    it('delivers every block in order, and one reorg event after invalidateblock and a longer other branch', async () => {
      await mine(2);
      let stream = await insertStream(target.nodeId, 'blocks');
      const first = await height();
      stream = await scanToHead(stream, target);
      await mine(4);
      stream = await scanToHead(stream, target);
      let events = await eventsOf(stream.id);
      expect(events.map((event) => [event.type, event.height])).toEqual([0, 1, 2, 3, 4].map((i) => ['block', first + i]));
      for (const [i, event] of events.entries()) expect(event.hash).toBe(await rpc('getblockhash', [first + i]));

      const head = await height();
      const dropped = [head - 1, head].map((h) => ({ height: h, hash: events.find((event) => event.height === h)!.hash }));
      await rpc('invalidateblock', [dropped[0]!.hash]);
      // Below the cursor: the stream waits for the node's chain to come back up.
      expect((await scanner.scan(stream, target)).appended).toBe(0);
      await mine(3, 'raw(52)');
      stream = await scanToHead(stream, target);
      events = await eventsOf(stream.id);
      const added = await Promise.all([head - 1, head, head + 1].map(async (h) => ({ height: h, hash: (await rpc('getblockhash', [h])) as string })));
      expect(events.slice(5).map((event) => [event.seq, event.type, event.height])).toEqual([
        [6, 'reorg', undefined],
        [7, 'block', head - 1],
        [8, 'block', head],
        [9, 'block', head + 1],
      ]);
      expect(events[5]).toMatchObject({ forkHeight: head - 2, dropped, added });
    }, 120_000);

    it('finds a coinbase paying a watched address (no block events), once mature the transaction spending it, and after a reorg replacing them the outputs tracked above the fork are gone', async () => {
      const described = (await rpc('getdescriptorinfo', ['wpkh(0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798)'])) as {
        descriptor: string;
      };
      const [address] = (await rpc('deriveaddresses', [described.descriptor])) as string[];
      let stream = await insertStream(target.nodeId, 'transactions', [address!]);
      stream = await scanToHead(stream, target);
      await mine(1);
      const [blockHash] = (await rpc('generatetoaddress', [1, address])) as string[];
      await mine(1);
      stream = await scanToHead(stream, target);
      const events = await eventsOf(stream.id);
      const block = (await rpc('getblock', [blockHash, 1])) as { height: number; tx: string[] };
      expect(events).toEqual([
        {
          seq: 1,
          id: expect.stringMatching(/^evt-/),
          type: 'transaction',
          family: 'bitcoin',
          height: block.height,
          blockHash,
          txid: block.tx[0],
          matched: ['output'],
          outputs: [{ vout: 0, address, value: expect.stringMatching(/^\d+\.\d{8}$/) }],
          inputs: [],
        },
      ]);
      const tracked = (await test.db('stream_outputs').where({ stream_id: stream.id })) as Array<{ txid: string; address: string }>;
      expect(tracked).toEqual([expect.objectContaining({ txid: block.tx[0], vout: 0, address })]);

      // Spent once mature: the input spending the tracked output is found.
      await mine(100);
      const paid = (events[0] as unknown as { outputs: Array<{ value: string }> }).outputs[0]!.value;
      const value = Number(paid);
      const unsigned = await rpc('createrawtransaction', [[{ txid: block.tx[0], vout: 0 }], [{ [address!]: (value - 0.001).toFixed(8) }]]);
      const signed = (await rpc('signrawtransactionwithkey', [unsigned, [GENERATOR_KEY_WIF]])) as { hex: string; complete: boolean };
      expect(signed.complete).toBe(true);
      const spend = (await rpc('sendrawtransaction', [signed.hex])) as string;
      await mine(1);
      stream = await scanToHead(stream, target);
      const spent = (await eventsOf(stream.id)).slice(1);
      expect(spent).toEqual([
        expect.objectContaining({
          seq: 2,
          txid: spend,
          height: await height(),
          matched: ['output', 'input'],
          inputs: [{ txid: block.tx[0], vout: 0, address, value: paid }],
          outputs: [{ vout: 0, address, value: (value - 0.001).toFixed(8) }],
        }),
      ]);

      // A reorg replacing the paying block: one reorg event, and the outputs tracked above the fork are gone.
      const top = await height();
      await rpc('invalidateblock', [blockHash]);
      await mine(top - block.height + 2, 'raw(52)');
      stream = await scanToHead(stream, target);
      const after = (await eventsOf(stream.id)).slice(2);
      expect(after).toEqual([expect.objectContaining({ seq: 3, type: 'reorg', forkHeight: block.height - 1 })]);
      expect(after[0]!.dropped!.length).toBe(top - block.height + 1);
      expect(after[0]!.added!.length).toBe(3);
      expect(await test.db('stream_outputs').where({ stream_id: stream.id })).toEqual([]);
    }, 120_000);
  });
});
