import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// `cloud nodes access` and `cloud nodes credentials create|list|remove` against the real services
// and the node-proxy: a btc node on the dev chain, its rules applied to `cloud rpc` calls, and a
// rotation by hand (a new credential, the old one revoked), the CLI keeping the new password.

const PASSWORD = 'correct horse 42';

interface Credential {
  id: string;
  name: string;
  nodeUser: string;
  nodePass?: string;
}

describe('cloud nodes access and credentials', () => {
  let platform: TestPlatform;
  let cli: ReturnType<typeof cliFor>['cli'];
  let cleanUp: () => void;
  let nodeId: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    ({ cli, cleanUp } = cliFor(platform));
    expect((await cli(['signup', 'rules@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await cli(['verify', (await platform.verificationFor('rules@example.com')).link])).code).toBe(0);
    expect((await cli(['login', 'rules@example.com', '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    nodeId = (await cli(['--json', 'nodes', 'create', 'btc', '--wait'])).json<{ id: string }>().id;
  }, 120_000);
  afterAll(async () => {
    cleanUp?.();
    await platform?.stop();
  });

  it('shows the rules, changes the ones named, and the proxy applies them', async () => {
    const none = await cli(['nodes', 'access', nodeId]);
    expect(none).toMatchObject({ code: 0, stdout: expect.stringMatching(/IP allowlist:\s+any address\n[\s\S]*Rate:\s+the platform's\n/) });

    const set = await cli(['--json', 'nodes', 'access', nodeId, '--refuse-method', 'getBlockHash', 'getmempoolinfo', '--rate', '50']);
    expect([set.code, set.json()]).toEqual([0, { ipAllowlist: [], originAllowlist: [], refusedMethods: ['getblockhash', 'getmempoolinfo'], ratePerSecond: 50 }]);
    // Each option replaces its rule only: the refused methods stay.
    const more = await cli(['--json', 'nodes', 'access', nodeId, '--allow-origin', 'https://app.example']);
    expect(more.json()).toMatchObject({ originAllowlist: ['https://app.example'], refusedMethods: ['getblockhash', 'getmempoolinfo'], ratePerSecond: 50 });

    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the proxy hears the change
    const refused = await cli(['rpc', nodeId, 'getblockhash', '0']);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('method "getblockhash" is not allowed on this hosted node') });
    expect((await cli(['--json', 'rpc', nodeId, 'getblockcount'])).code).toBe(0);

    const bad = await cli(['nodes', 'access', nodeId, '--allow-ip', '300.1.1.1']);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('body.ipAllowlist.0') });
    const cleared = await cli(['--json', 'nodes', 'access', nodeId, '--clear']);
    expect(cleared.json()).toEqual({ ipAllowlist: [], originAllowlist: [], refusedMethods: [], ratePerSecond: null });
  });

  it('creates, lists and removes named credentials; cloud rpc goes on with the one it kept', async () => {
    const created = await cli(['--json', 'nodes', 'credentials', 'create', nodeId, 'ci']);
    expect([created.code, created.json<Credential>()]).toEqual([0, expect.objectContaining({ name: 'ci', nodePass: expect.any(String) })]);
    const listed = (await cli(['--json', 'nodes', 'credentials', 'list', nodeId])).json<Credential[]>();
    expect(listed.map((each) => each.name)).toEqual(['default', 'ci']);
    expect(listed.every((each) => each.nodePass === undefined)).toBe(true);

    const removed = await cli(['nodes', 'credentials', 'remove', nodeId, 'default']);
    expect(removed).toMatchObject({ code: 0, stderr: expect.stringContaining(`Revoked default (${listed[0]!.id})`), stdout: expect.stringMatching(/^ID +NAME +NODE USER +CREATED\n\S+ +ci +/) });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await cli(['--json', 'rpc', nodeId, 'getblockcount'])).code).toBe(0);

    const unknown = await cli(['nodes', 'credentials', 'remove', nodeId, 'nope']);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining(`node ${nodeId} has no credential nope`) });
    const last = await cli(['--json', 'nodes', 'credentials', 'remove', nodeId, 'ci']);
    expect(last.json()).toEqual({ error: expect.objectContaining({ code: 'Conflict', status: 409 }) });
  });
});
