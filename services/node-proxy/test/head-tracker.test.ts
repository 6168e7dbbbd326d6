import { createLogger } from '@cloud/logging';
import { Upstreams } from '../src/forwarding/upstreams';
import { HeadTracker } from '../src/heads/head-tracker';
import { MemberHealth } from '../src/pools/member-health';
import { RouteTable } from '../src/routing/route-table';
import { ChainProcess, poolRoute } from './chain-process';
import { waitUntil } from './harness';

const KEY = Buffer.alloc(32, 3);

// The head tracker against a real anvil and a real litecoind regtest daemon: heads read through
// the nodes' internal login, and reorgs (anvil's evm_snapshot/evm_revert and anvil_reorg,
// litecoind's invalidateblock) reported with their fork height, for the node and its pools.
describe('the head tracker', () => {
  const table = new RouteTable();
  const upstreams = new Upstreams({ key: KEY, timeoutMs: 5_000, maxAnswerBytes: 16 * 1024 * 1024 });
  const health = new MemberHealth({ failuresToBench: 3, benchMs: 200, now: Date.now });
  const tracker = new HeadTracker({
    table,
    upstreams,
    health,
    logger: createLogger({ service: 'heads-test', level: 'silent' }),
    intervalMs: 50,
    idleMs: 60_000,
    now: Date.now,
  });
  const reorgs: Array<[string, number]> = [];
  tracker.onReorg((id, fork) => reorgs.push([id, fork]));
  let anvil: ChainProcess;
  let litecoind: ChainProcess;

  beforeAll(async () => {
    [anvil, litecoind] = await Promise.all([ChainProcess.create('anvil', 'node-anvil-heads', KEY), ChainProcess.create('litecoind', 'node-ltc-heads', KEY)]);
    await Promise.all([anvil.start(), litecoind.start()]);
    table.apply(anvil.route());
    table.apply(litecoind.route());
    tracker.start();
  }, 60_000);
  afterAll(async () => {
    tracker.stop();
    await upstreams.close();
    await Promise.all([anvil?.remove(), litecoind?.remove()]);
  });

  const route = (id: string) => table.get(id)!;
  /** Waits until the tracker has read the node at `height`, calling headOf as the cache does (which keeps the node in use). */
  const headAt = async (id: string, height: number) => {
    await waitUntil(`the head of ${id} at ${height}`, () => tracker.headOf(route(id))?.height === height, 20_000, 20);
    return tracker.headOf(route(id))!;
  };
  const reorgOf = (id: string) =>
    waitUntil(`a reorg of ${id}`, () => reorgs.some(([each]) => each === id), 20_000, 20).then(() => reorgs.filter(([each]) => each === id));

  it("follows a node once its route is passed to headOf: unknown at first, then the node's head with its hash", async () => {
    expect(tracker.known(anvil.nodeId)).toBeUndefined();
    expect(tracker.headOf(route(anvil.nodeId))).toBeUndefined();
    const height = await anvil.mine(3);
    const head = await headAt(anvil.nodeId, height);
    const block = (await anvil.rpc('eth_getBlockByNumber', ['latest', false])) as { hash: string };
    expect(head).toEqual({ height: 3, hash: block.hash, readAt: expect.any(Number) });
    const ltcHeight = await litecoind.mine(5);
    expect(await headAt(litecoind.nodeId, ltcHeight)).toMatchObject({ height: 5, hash: await litecoind.rpc('getbestblockhash') });
  });

  it('sees an anvil chain reverted and mined past its old head, and names the fork height for the node and its pool', async () => {
    table.apply(poolRoute('pool-eth-heads', 'eth', [anvil.nodeId]));
    reorgs.length = 0;
    const snapshot = await anvil.rpc('evm_snapshot'); // at 3
    await headAt(anvil.nodeId, await anvil.mine(3)); // 6, seen
    await anvil.rpc('evm_revert', [snapshot]);
    await anvil.mine(5); // 8: blocks 4–6 replaced
    expect(await reorgOf(anvil.nodeId)).toEqual([[anvil.nodeId, 4]]);
    expect(reorgs).toContainEqual(['pool-eth-heads', 4]);
    await headAt(anvil.nodeId, 8);
    // The pool's head is its best member's.
    expect(tracker.headOf(route('pool-eth-heads'))).toEqual(tracker.known(anvil.nodeId));
  });

  it('sees anvil_reorg replace the top blocks at the same height', async () => {
    reorgs.length = 0;
    const before = await headAt(anvil.nodeId, 8);
    await anvil.rpc('anvil_reorg', [2, []]);
    expect(await reorgOf(anvil.nodeId)).toEqual([[anvil.nodeId, 7]]);
    const after = await headAt(anvil.nodeId, 8);
    expect(after.hash).not.toBe(before.hash);
  });

  it('sees litecoind invalidate its top blocks (the head goes down) and mine others, and names the fork height', async () => {
    reorgs.length = 0;
    await headAt(litecoind.nodeId, 5);
    await litecoind.rpc('invalidateblock', [await litecoind.rpc('getblockhash', [4])]);
    expect(await reorgOf(litecoind.nodeId)).toEqual([[litecoind.nodeId, 4]]);
    await litecoind.mine(3, 'raw(52)'); // 6, on another branch from 3
    await headAt(litecoind.nodeId, 6);
    // Seen going down then up, or only up past the old head: one fork at 4 either way.
    expect(reorgs.filter(([id]) => id === litecoind.nodeId).every(([, fork]) => fork === 4)).toBe(true);
  });

  it("counts a pool member's failed head reads for the circuit breaker, and its first good read after the bench brings it back", async () => {
    table.apply(poolRoute('pool-ltc-heads', 'ltc', [litecoind.nodeId]));
    await litecoind.flush();
    await litecoind.kill();
    await waitUntil('the member to be benched', () => health.isBenched(litecoind.nodeId), 20_000, 20);
    expect(tracker.bestOf(route('pool-ltc-heads'))).toBeUndefined();
    await litecoind.start();
    await waitUntil('the member to be back', () => !health.isBenched(litecoind.nodeId), 20_000, 20);
    expect(tracker.bestOf(route('pool-ltc-heads'))).toMatchObject({ height: 6 });
  });
});
