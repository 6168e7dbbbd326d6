import { readFileSync } from 'node:fs';
import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { shellWord } from '@cloud/sdk';
import { cliFor } from './support/cli-runner';

// `cloud pools` against the platform (issue 31): create from two nodes (by id and by name), the
// credential shown once with the lines ready to paste and kept for `cloud rpc`, list, info (also
// `get`, and by name), update (members replaced, the lag bound), usage, its own credentials and
// access rules, remove (also `delete`); and the failures with the exit codes of the table: a member
// of another chain or unknown (the API's 400 naming it), bad flags, a pool that is not there.

const PASSWORD = 'correct horse 42';

interface PoolJson {
  id: string;
  name: string;
  image: string;
  dev: boolean;
  maxLagBlocks: number;
  members: Array<{ nodeId: string; name: string | null; state: string }>;
  endpoints: { jsonRpc: string };
  nodeUser?: string;
  nodePass?: string;
}

describe('cloud pools', () => {
  let platform: TestPlatform;
  let account: ReturnType<typeof cliFor>;
  let cli: ReturnType<typeof cliFor>['cli'];
  const nodes: { first: string; second: string; other: string } = { first: '', second: '', other: '' };
  let pool: PoolJson;

  beforeAll(async () => {
    platform = await startTestPlatform();
    account = cliFor(platform);
    ({ cli } = account);
    expect((await cli(['signup', 'pools@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('pools@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'pools@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    const create = async (...args: string[]) => (await cli(['--json', 'nodes', 'create', ...args])).json<{ id: string }>().id;
    nodes.first = await create('eth', '--name', 'eth one');
    nodes.second = await create('eth');
    nodes.other = await create('btc');
  }, 120_000);
  afterAll(async () => {
    account?.cleanUp();
    await platform?.stop();
  });

  it('creates a pool of two nodes, one named, with its endpoint and its credential shown once and kept', async () => {
    const created = await cli(['pools', 'create', '--name', 'payments', '--member', 'eth one', '--member', nodes.second, '--max-lag-blocks', '3']);
    expect(created.code).toBe(0);
    const id = /^Id:\s+(pool-[0-9a-f-]{36})$/m.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    const user = /^Pool user:\s+(\S+)$/m.exec(created.stdout)?.[1];
    const password = /^Pool password:\s+(\S+)$/m.exec(created.stdout)?.[1];
    expect([user, password]).toEqual([expect.any(String), expect.any(String)]);
    expect(created.stdout).toMatch(/^Name:\s+payments$/m);
    expect(created.stdout).toMatch(/^Network:\s+eth dev chain \(anvil\)$/m);
    expect(created.stdout).toMatch(/^Max lag:\s+3 blocks behind the best member's head$/m);
    expect(created.stdout).toMatch(/^JSON-RPC:\s+https?:\/\/127\.0\.0\.1:\d+\/$/m);
    // Its members, in the order given, with their state.
    const members = created.stdout.slice(created.stdout.indexOf('\nMembers:\n'));
    expect(members).toMatch(new RegExp(`^NODE\\s+NAME\\s+STATE\\s+SYNC\\s+CALLS\\n${nodes.first}\\s+eth one\\s+\\w+.*\\n${nodes.second}\\s+-\\s+\\w+`, 'm'));
    // The lines ready to paste: curl with the pool's own credential at its address.
    const curl = /^# curl\n(.+)$/m.exec(created.stdout)?.[1];
    expect(curl).toContain(`-u ${shellWord(`${user}:${password}`)}`);
    expect(curl).toContain('eth_blockNumber');
    expect(created.stderr).toContain('The password is shown only now');
    // Kept (0600) for `cloud rpc <poolId>`, as a node's.
    expect(JSON.parse(readFileSync(account.configFile, 'utf8')).nodeCredentials[id!]).toEqual({ user, pass: password });

    pool = (await cli(['--json', 'pools', 'info', id!])).json<PoolJson>();
    expect(pool).toMatchObject({
      id,
      name: 'payments',
      image: 'eth',
      dev: true,
      maxLagBlocks: 3,
      members: [
        { nodeId: nodes.first, name: 'eth one' },
        { nodeId: nodes.second, name: null },
      ],
    });
    // Shown once: never again.
    expect(pool.nodePass).toBeUndefined();
    // With the kept credential, info prints the ready lines again.
    expect((await cli(['pools', 'info', id!])).stdout).toContain(`-u ${shellWord(`${user}:${password}`)}`);
  });

  it('prints the credential in the --json answer, and lists the pools as a table and as JSON', async () => {
    const second = (await cli(['--json', 'pools', 'create', '--name', 'reads', '--member', nodes.first])).json<PoolJson>();
    expect(second).toMatchObject({ name: 'reads', maxLagBlocks: 5, nodeUser: expect.any(String), nodePass: expect.any(String) });

    const list = (await cli(['--json', 'pools', 'list'])).json<PoolJson[]>();
    expect(list.map((each) => [each.id, each.name, each.members.length])).toEqual([
      [pool.id, 'payments', 2],
      [second.id, 'reads', 1],
    ]);
    const table = await cli(['pools', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+IMAGE\s+NETWORK\s+MEMBERS\s+HEALTH\s+JSON-RPC\s+CREATED\n/);
    expect(table.stdout).toMatch(new RegExp(`^${pool.id}\\s+payments\\s+eth\\s+eth dev chain \\(anvil\\)\\s+2\\s+`, 'm'));

    // get and delete are the API's words for info and remove.
    expect((await cli(['--json', 'pools', 'get', 'reads'])).json<PoolJson>().id).toBe(second.id);
    expect((await cli(['--json', 'pools', 'delete', second.id])).json()).toEqual({ id: second.id, deleted: true });
    expect(JSON.parse(readFileSync(account.configFile, 'utf8')).nodeCredentials[second.id]).toBeUndefined();
  });

  it('updates a pool: members replaced as a whole, the lag bound, the name', async () => {
    const updated = (
      await cli(['--json', 'pools', 'update', 'payments', '--member', nodes.second, '--max-lag-blocks', '0', '--name', 'payments two'])
    ).json<PoolJson>();
    expect(updated).toMatchObject({ id: pool.id, name: 'payments two', maxLagBlocks: 0, members: [{ nodeId: nodes.second }] });
    const human = await cli(['pools', 'update', pool.id, '--member', nodes.first, '--member', nodes.second]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^${nodes.first}\\s+eth one\\s`, 'm'));
    expect((await cli(['--json', 'pools', 'info', pool.id])).json<PoolJson>().members.map((member) => member.nodeId)).toEqual([nodes.first, nodes.second]);
  });

  it("shows a pool's usage as a node's, booked under the pool's id", async () => {
    const usage = (await cli(['--json', 'pools', 'usage', pool.id, '--granularity', 'hour'])).json<{
      nodeId: string;
      granularity: string;
      totals: { total: number };
    }>();
    expect(usage).toMatchObject({ nodeId: pool.id, granularity: 'hour', totals: { total: 0 } });
    const human = await cli(['pools', 'usage', 'payments two']);
    expect(human).toMatchObject({ code: 0, stderr: 'No calls in this range.\n' });
    expect(human.stdout).toMatch(new RegExp(`^Pool:\\s+${pool.id}$`, 'm'));
    expect(await cli(['pools', 'usage', pool.id, '--from', 'yesterday'])).toMatchObject({ code: 2, stderr: expect.stringContaining('query.from') });
  });

  it('cloud rpc <poolId> needs the credential kept where the pool was created', async () => {
    // Another machine of the same user: the pool's password was shown once, elsewhere.
    const elsewhere = cliFor(platform);
    try {
      expect((await elsewhere.cli(['login', 'pools@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
      expect(await elsewhere.cli(['rpc', pool.id, 'eth_blockNumber'])).toMatchObject({
        code: 2,
        stderr: `cloud: no credentials for ${pool.id} on this machine (they are shown once, when it is created); make new ones with: cloud pools credentials create ${pool.id} <name>\n`,
      });
      // As the hint says: a new credential of the pool, shown once there and kept for cloud rpc.
      const created = await elsewhere.cli(['pools', 'credentials', 'create', pool.id, 'laptop', '--token']);
      expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Token:\s+nt_\S+$/m) });
      const token = /^Token:\s+(\S+)$/m.exec(created.stdout)![1]!;
      expect(created.stdout).toMatch(new RegExp(`^JSON-RPC:\\s+https?://127\\.0\\.0\\.1:\\d+/${token}$`, 'm'));
      expect(created.stdout).toContain('# curl');
      expect(JSON.parse(readFileSync(elsewhere.configFile, 'utf8')).nodeCredentials[pool.id]).toMatchObject({ token });
    } finally {
      elsewhere.cleanUp();
    }
  });

  it("lists a pool's credentials and sets its access rules, as a node's", async () => {
    const listed = (await cli(['--json', 'pools', 'credentials', 'list', pool.id])).json<Array<{ name: string; kind: string }>>();
    expect(listed.map((each) => [each.name, each.kind])).toEqual([
      ['default', 'basic'],
      ['laptop', 'token'],
    ]);
    const removed = await cli(['pools', 'credentials', 'remove', pool.id, 'laptop']);
    expect(removed).toMatchObject({ code: 0, stderr: expect.stringContaining('Revoked laptop') });
    const ruled = await cli(['--json', 'pools', 'access', pool.id, '--refuse-method', 'eth_sendRawTransaction']);
    expect(ruled.json()).toMatchObject({ refusedMethods: ['eth_sendrawtransaction'] });
    expect((await cli(['--json', 'pools', 'info', pool.id])).json<{ access: { refusedMethods: string[] } }>().access.refusedMethods).toEqual([
      'eth_sendrawtransaction',
    ]);
    expect(await cli(['pools', 'credentials', 'rotate', pool.id, 'nothing'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`pool ${pool.id} has no credential nothing; see cloud pools credentials list ${pool.id}`),
    });
  });

  it('says what is wrong, with the exit codes of the table', async () => {
    // A member of another chain: the API's 400 naming both.
    const mixed = await cli(['--json', 'pools', 'create', '--name', 'mixed', '--member', nodes.first, '--member', nodes.other]);
    expect([mixed.code, mixed.json()]).toEqual([
      2,
      { error: { code: 'InvalidInput', message: expect.stringContaining(nodes.other), status: 400, exitCode: 2 } },
    ]);
    // A well-formed id of no node of yours: the API names it.
    const unknownId = 'node-00000000-0000-4000-8000-000000000000';
    const unknown = await cli(['--json', 'pools', 'update', pool.id, '--member', unknownId]);
    expect([unknown.code, unknown.json()]).toMatchObject([2, { error: { code: 'InvalidInput', message: expect.stringContaining(unknownId) } }]);
    // A name no node has: found here, before the API is asked.
    expect(await cli(['pools', 'create', '--name', 'x', '--member', 'no such node'])).toMatchObject({
      code: 5,
      stderr: expect.stringContaining('no node of yours has the id or name "no such node"'),
    });
    expect(await cli(['pools', 'create', '--member', nodes.first])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("required option '--name <name>'"),
    });
    expect(await cli(['pools', 'create', '--name', 'x', '--member', nodes.first, '--max-lag-blocks', '-1'])).toMatchObject({ code: 2 });
    expect(await cli(['pools', 'update', pool.id])).toMatchObject({ code: 2, stderr: expect.stringContaining('give what to change') });
    const gone = await cli(['--json', 'pools', 'info', 'pool-00000000-0000-4000-8000-000000000000']);
    expect([gone.code, gone.json()]).toMatchObject([5, { error: { code: 'NotFound', status: 404 } }]);
    // The pool is as it was.
    expect((await cli(['--json', 'pools', 'info', pool.id])).json<PoolJson>().members).toHaveLength(2);
  });

  it('removes a pool; its nodes run on', async () => {
    const removed = await cli(['pools', 'remove', pool.id]);
    expect(removed).toMatchObject({ code: 0, stderr: `Deleted ${pool.id}; its member nodes run on.\n` });
    expect((await cli(['pools', 'info', pool.id])).code).toBe(5);
    expect((await cli(['--json', 'pools', 'list'])).json()).toEqual([]);
    expect((await cli(['pools', 'list'])).stderr).toContain('No pools. Create one with: cloud pools create');
    const states = (await cli(['--json', 'nodes', 'list'])).json<Array<{ id: string; state: string }>>();
    expect(states.map((node) => node.id)).toEqual([nodes.first, nodes.second, nodes.other]);
    expect(states.every((node) => node.state !== 'deleting')).toBe(true);
  });
});
