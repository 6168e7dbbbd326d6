import type { NodeRoute } from '@cloud/bus';
import { RouteTable } from '../src/routing/route-table';

const route = (nodeId: string, revision: number, changes: Partial<NodeRoute> = {}): NodeRoute => ({
  nodeId,
  userId: 'user-1',
  image: 'ltc',
  chain: 'ltc',
  revision,
  state: 'running',
  basic: { user: `u-${nodeId}`, passwordSha256: 'a'.repeat(64) },
  upstream: 'http://127.0.0.1:9',
  ...changes,
});

describe('the routing table', () => {
  it('keeps the newest revision of a node whatever order the changes come in', () => {
    const table = new RouteTable();
    expect(table.apply(route('node-a', 2, { state: 'running' }))).toBe(true);
    expect(table.apply(route('node-a', 1, { state: 'provisioning' }))).toBe(false);
    expect(table.apply(route('node-a', 2, { state: 'failed' }))).toBe(false);
    expect(table.get('node-a')).toMatchObject({ state: 'running', revision: 2, jwt: false, interfaces: { family: 'bitcoin', listener: 'ltc' } });
    // A route from before several credentials: its one credential, as `default`.
    expect(table.get('node-a')!.basicCredentials).toEqual([{ id: 'default', user: 'u-node-a', passwordSha256: Buffer.alloc(32, 0xaa) }]);
  });

  it('indexes every credential a route lists, forgets a revoked one, and compiles the access rules', () => {
    const table = new RouteTable();
    const credentials = [
      { id: 'cred-1', user: 'u-one', passwordSha256: 'a'.repeat(64) },
      { id: 'cred-2', user: 'u-two', passwordSha256: 'b'.repeat(64) },
    ];
    const access = {
      ipAllowlist: ['10.0.0.0/8'],
      originAllowlist: ['https://app.example'],
      refusedMethods: ['getblockcount'],
      ratePerSecond: 3,
      maxAnswerBytes: null,
    };
    table.apply(route('node-a', 1, { basic: { user: 'u-one', passwordSha256: 'a'.repeat(64) }, credentials, access }));
    expect([table.byNodeUser('u-one')?.nodeId, table.byNodeUser('u-two')?.nodeId]).toEqual(['node-a', 'node-a']);
    expect(table.get('node-a')!.basicCredentials.map((each) => each.id)).toEqual(['cred-1', 'cred-2']);
    expect(table.get('node-a')!.rules).toMatchObject({ origins: new Set(['https://app.example']), refused: new Set(['getblockcount']), ratePerSecond: 3 });
    table.apply(route('node-a', 2, { basic: { user: 'u-one', passwordSha256: 'a'.repeat(64) }, credentials: credentials.slice(0, 1) }));
    expect(table.byNodeUser('u-two')).toBeUndefined();
    expect(table.get('node-a')!.rules).toBeUndefined();
  });

  it('finds a node by its Basic user, and forgets the old user when the credentials rotate', () => {
    const table = new RouteTable();
    table.apply(route('node-a', 1));
    expect(table.byNodeUser('u-node-a')?.nodeId).toBe('node-a');
    table.apply(route('node-a', 2, { basic: { user: 'u-new', passwordSha256: 'b'.repeat(64) } }));
    expect(table.byNodeUser('u-node-a')).toBeUndefined();
    expect(table.byNodeUser('u-new')?.nodeId).toBe('node-a');
  });

  it('drops a deleted node and does not let an older message bring it back', () => {
    const table = new RouteTable();
    const changes: [string, boolean][] = [];
    table.onChange((nodeId, current) => changes.push([nodeId, current !== undefined]));
    table.apply(route('node-a', 1));
    table.apply(route('node-a', 3, { state: 'deleting', upstream: null }));
    expect(table.apply(route('node-a', 2))).toBe(false);
    expect(table.get('node-a')).toBeUndefined();
    expect(table.byNodeUser('u-node-a')).toBeUndefined();
    expect(changes).toEqual([
      ['node-a', true],
      ['node-a', false],
    ]);
  });

  it('marks a node without Basic credentials as a jwt node, and leaves out images it cannot serve', () => {
    const table = new RouteTable();
    table.apply(route('node-j', 1, { image: 'eth', chain: 'eth', basic: null }));
    table.apply(route('node-x', 1, { image: 'dogecoin' }));
    expect(table.get('node-j')).toMatchObject({ jwt: true, basicCredentials: [], interfaces: { family: 'ethereum', webSocket: true } });
    expect(table.get('node-x')).toBeUndefined();
  });

  it('replaces everything with a snapshot, yet lets a message that raced the snapshot apply after it', () => {
    const table = new RouteTable();
    table.apply(route('node-old', 1));
    table.apply(route('node-new', 1)); // arrived while the snapshot was read, after it was taken
    table.apply(route('node-b', 4)); // the snapshot's one page
    table.removeAllBut(new Set(['node-b']));
    expect(table.get('node-old')).toBeUndefined();
    expect(table.get('node-new')).toBeUndefined();
    expect(table.apply(route('node-new', 1))).toBe(true); // the replay
    expect([table.size, table.get('node-b')?.revision]).toEqual([2, 4]);
  });
});

describe('pool routes in the routing table', () => {
  it('indexes a pool by its members, re-indexes it when its members change, and forgets it when deleted', () => {
    const table = new RouteTable();
    const pool = (revision: number, members: string[], state: NodeRoute['state'] = 'running'): NodeRoute =>
      route('pool-1', revision, { upstream: null, state, pool: { members, maxLagBlocks: 5 }, basic: { user: 'u-pool-1', passwordSha256: 'c'.repeat(64) } });
    table.apply(route('node-a', 1));
    table.apply(pool(1, ['node-a', 'node-b']));
    expect([...table.pools()].map((each) => each.nodeId)).toEqual(['pool-1']);
    expect([...table.poolsOf('node-a')]).toEqual(['pool-1']);
    expect([...table.poolsOf('node-b')]).toEqual(['pool-1']);
    // Served by its own credentials, as a node is.
    expect(table.byNodeUser('u-pool-1')?.nodeId).toBe('pool-1');
    table.apply(pool(2, ['node-b']));
    expect([...table.poolsOf('node-a')]).toEqual([]);
    expect([...table.poolsOf('node-b')]).toEqual(['pool-1']);
    table.apply(pool(3, ['node-b'], 'deleted'));
    expect([...table.pools()]).toEqual([]);
    expect([...table.poolsOf('node-b')]).toEqual([]);
    expect(table.byNodeUser('u-pool-1')).toBeUndefined();
  });
});
