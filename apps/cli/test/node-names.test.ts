import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// Node names in `cloud`: nodes create --name, nodes rename (by id or by name, --clear), the NAME
// column of nodes list and the Name line of nodes info; a name in place of an id where it fits one
// node, and the failures: a bad name (the API's 400), a name of several nodes, a name of none.

const PASSWORD = 'correct horse 42';

interface NodeJson {
  id: string;
  name: string | null;
}

describe('cloud nodes with names', () => {
  let platform: TestPlatform;
  let cli: ReturnType<typeof cliFor>['cli'];
  let cleanUp: () => void;
  let first: NodeJson;
  let second: NodeJson;

  beforeAll(async () => {
    platform = await startTestPlatform();
    ({ cli, cleanUp } = cliFor(platform));
    expect((await cli(['signup', 'names@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('names@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'names@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
  }, 120_000);
  afterAll(async () => {
    cleanUp?.();
    await platform?.stop();
  });

  it('creates a node with --name, shown in the answer, nodes list and nodes info', async () => {
    const created = await cli(['nodes', 'create', 'eth', '--jwt', '--name', 'payments eth']);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Name:\s+payments eth$/m) });
    second = (await cli(['--json', 'nodes', 'create', 'btc', '--jwt'])).json<NodeJson>();
    expect(second.name).toBeNull();
    const list = (await cli(['--json', 'nodes', 'list'])).json<NodeJson[]>();
    first = list.find((node) => node.name === 'payments eth')!;
    expect(list.map((node) => node.name)).toEqual(['payments eth', null]);

    const table = await cli(['nodes', 'list']);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ID\s+NAME\s+IMAGE\s/);
    expect(rows.find((row) => row.startsWith(first.id))).toMatch(new RegExp(`^${first.id}\\s+payments eth\\s+eth\\s`));
    expect(rows.find((row) => row.startsWith(second.id))).toMatch(new RegExp(`^${second.id}\\s+-\\s+btc\\s`));

    const info = await cli(['nodes', 'info', first.id]);
    expect(info).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^Id:\\s+${first.id}\\nName:\\s+payments eth\\n`)) });
    expect((await cli(['nodes', 'info', second.id])).stdout).not.toMatch(/^Name:/m);
  });

  it('renames a node by its id, and by its name; --clear removes the name', async () => {
    const renamed = await cli(['nodes', 'rename', first.id, 'ledger']);
    expect(renamed).toMatchObject({ code: 0, stderr: `${first.id} is named "ledger".\n` });
    expect((await cli(['--json', 'nodes', 'info', first.id])).json<NodeJson>().name).toBe('ledger');
    // A name in place of the id, where it names one node.
    expect((await cli(['--json', 'nodes', 'rename', 'ledger', 'ledger two'])).json<NodeJson>()).toMatchObject({ id: first.id, name: 'ledger two' });
    expect((await cli(['--json', 'nodes', 'info', 'ledger two'])).json<NodeJson>().id).toBe(first.id);
    expect((await cli(['nodes', 'list'])).stdout).toMatch(new RegExp(`^${first.id}\\s+ledger two\\s`, 'm'));

    expect(await cli(['nodes', 'rename', second.id, '--clear'])).toMatchObject({ code: 0, stderr: `${second.id} has no name now.\n` });
  });

  it('says what is wrong, with the exit codes of the table', async () => {
    // The API's rule: 400, exit 2, its message naming the field.
    for (const name of ['   ', 'x'.repeat(65), 'two\nlines']) {
      const bad = await cli(['--json', 'nodes', 'rename', first.id, name]);
      expect([bad.code, bad.json()]).toEqual([
        2,
        { error: { code: 'InvalidInput', message: expect.stringContaining('body.name: '), status: 400, exitCode: 2 } },
      ]);
    }
    const badCreate = await cli(['nodes', 'create', 'eth', '--jwt', '--name', '']);
    expect(badCreate).toMatchObject({ code: 2, stderr: expect.stringContaining('body.name: must not be empty') });
    expect(await cli(['nodes', 'rename', first.id])).toMatchObject({ code: 2, stderr: 'cloud: give a new name, or --clear to remove the name\n' });
    expect(await cli(['nodes', 'rename', first.id, 'x', '--clear'])).toMatchObject({ code: 2 });

    // A name of two nodes names neither: the ids, to choose from.
    await cli(['nodes', 'rename', second.id, 'ledger two']);
    const ambiguous = await cli(['nodes', 'info', 'ledger two']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('2 of your nodes are named "ledger two"');
    expect(ambiguous.stderr).toContain(first.id);
    expect(ambiguous.stderr).toContain(second.id);
    const unknown = await cli(['--json', 'nodes', 'stop', 'no such name']);
    expect([unknown.code, unknown.json()]).toEqual([
      5,
      { error: { code: 'NotFound', message: expect.stringContaining('no node of yours has the id or name "no such name"'), status: 404, exitCode: 5 } },
    ]);
  });
});
