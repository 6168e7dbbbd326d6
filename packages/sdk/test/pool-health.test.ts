import { poolHealth, type PoolMemberReading } from '../src';

// A pool's members in words, by the proxy's rule: running, not syncing, within maxLagBlocks of the
// best running member's height.

const member = (nodeId: string, state: string, sync: PoolMemberReading['sync']): PoolMemberReading => ({ nodeId, name: null, state, sync });

test('members that run, synced and within the lag bound, serve calls', () => {
  const health = poolHealth({
    maxLagBlocks: 5,
    members: [member('a', 'running', { height: 100, syncing: false }), member('b', 'running', { height: 95, syncing: false })],
  });
  expect(health).toEqual({
    serving: 2,
    words: '2 of 2 members serve calls',
    members: [
      { nodeId: 'a', serves: true, words: 'serves calls', behind: 0 },
      { nodeId: 'b', serves: true, words: 'serves calls', behind: 5 },
    ],
  });
});

test('a member further behind than the bound, syncing, stopped or not yet read serves none', () => {
  const health = poolHealth({
    maxLagBlocks: 5,
    members: [
      member('a', 'running', { height: 100, syncing: false }),
      member('b', 'running', { height: 90, syncing: false }),
      member('c', 'syncing', { height: 40, syncing: true }),
      member('d', 'running', { height: 100, syncing: true }),
      member('e', 'stopped', { height: 120, syncing: false }),
      member('f', 'running', null),
    ],
  });
  expect(health.members.map((each) => [each.nodeId, each.serves, each.words])).toEqual([
    ['a', true, 'serves calls'],
    ['b', false, '10 blocks behind (more than 5)'],
    ['c', false, 'syncing'],
    ['d', false, 'syncing'],
    // A stopped member's last height is not the pool's best head.
    ['e', false, 'stopped'],
    ['f', false, 'no reading yet'],
  ]);
  expect(health.words).toBe('1 of 6 members serve calls');
});

test('says so when no member serves, or there are none', () => {
  expect(poolHealth({ maxLagBlocks: 5, members: [member('a', 'failed', null)] }).words).toBe('no member serves calls');
  expect(poolHealth({ maxLagBlocks: 5, members: [] })).toEqual({ members: [], serving: 0, words: 'no members' });
});
