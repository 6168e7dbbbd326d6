import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// `cloud nodes stop|start|restart|resize` against the real services: a btc node on the dev chain
// stopped, refused by the proxy while stopped, resized, started and restarted, with its chain and
// kept credentials; and the failures a user meets, each with its exit code.

const PASSWORD = 'correct horse 42';

interface NodeJson {
  id: string;
  state: string;
  large: boolean;
  address: string;
}

describe('cloud nodes stop|start|restart|resize', () => {
  let platform: TestPlatform;
  let cli: ReturnType<typeof cliFor>['cli'];
  let cleanUp: () => void;
  let node: NodeJson;

  beforeAll(async () => {
    platform = await startTestPlatform();
    ({ cli, cleanUp } = cliFor(platform));
    expect((await cli(['signup', 'ops@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('ops@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'ops@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    node = (await cli(['--json', 'nodes', 'create', 'btc', '--wait'])).json<NodeJson>();
  }, 120_000);
  afterAll(async () => {
    cleanUp?.();
    await platform?.stop();
  });

  const rpc = async (...args: string[]) => {
    const answer = await cli(['--json', 'rpc', node.id, ...args]);
    expect([args, answer.code, answer.stderr]).toEqual([args, 0, '']);
    return answer.json();
  };

  it('stops a node and waits until it is stopped; the proxy then refuses its calls', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // a block or two on the dev chain
    const height = (await rpc('getblockcount')) as number;
    const tip = await rpc('getblockhash', String(height));

    const stopped = await cli(['--json', 'nodes', 'stop', node.id, '--wait']);
    expect([stopped.code, stopped.json<NodeJson>()]).toEqual([0, expect.objectContaining({ id: node.id, state: 'stopped', address: node.address })]);
    const refused = await cli(['rpc', node.id, 'getblockcount']);
    expect(refused).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining(`node ${node.id} is stopped; start it to call it again`) });

    const again = await cli(['--json', 'nodes', 'stop', node.id]);
    expect(again.code).toBe(6);
    expect(again.json()).toEqual({ error: { code: 'Conflict', message: expect.stringContaining(`node ${node.id} is stopped`), status: 409, exitCode: 6 } });

    const resized = await cli(['--json', 'nodes', 'resize', node.id, '--large', '--wait']);
    expect([resized.code, resized.json<NodeJson>()]).toEqual([0, expect.objectContaining({ state: 'stopped', large: true })]);

    const started = await cli(['nodes', 'start', node.id, '--wait']);
    expect(started).toMatchObject({ code: 0, stdout: expect.stringMatching(/State:\s+running\n[\s\S]*Large:\s+yes\n/) });
    // The same chain, through the proxy, with the credentials the CLI kept when it created the node.
    expect((await rpc('getblockcount')) as number).toBeGreaterThanOrEqual(height);
    expect(await rpc('getblockhash', String(height))).toBe(tip);

    const restarted = await cli(['--json', 'nodes', 'restart', node.id, '--wait']);
    expect([restarted.code, restarted.json<NodeJson>()]).toEqual([0, expect.objectContaining({ state: 'running', large: true })]);
    const small = await cli(['--json', 'nodes', 'resize', node.id, '--small', '--wait']);
    expect([small.code, small.json<NodeJson>()]).toEqual([0, expect.objectContaining({ state: 'running', large: false })]);
    expect(await rpc('getblockhash', String(height))).toBe(tip);
  }, 120_000);

  it('says what is wrong, with the exit codes of the table', async () => {
    for (const args of [
      ['resize', node.id],
      ['resize', node.id, '--large', '--small'],
    ]) {
      const usage = await cli(['nodes', ...args]);
      expect([args, usage.code, usage.stderr]).toEqual([args, 2, 'cloud: give one of --large or --small\n']);
    }
    const unknown = await cli(['--json', 'nodes', 'start', 'node-00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(5);
    expect(unknown.json()).toMatchObject({ error: { code: 'NotFound', status: 404 } });
    const running = await cli(['nodes', 'start', node.id]);
    expect(running).toMatchObject({ code: 6, stderr: expect.stringContaining(`node ${node.id} is running; start applies to a node that is stopped, failed`) });
  });
});
