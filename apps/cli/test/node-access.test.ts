import { startTestPlatform, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// `cloud nodes access` and `cloud nodes credentials create|list|rotate|remove` against the real
// services and the node-proxy: a btc node on the dev chain, its rules applied to `cloud rpc` calls,
// a rotation by hand (a new credential, the old one revoked) and by `rotate`, the CLI keeping the
// new password; URL tokens shown once with the lines ready to paste.

const PASSWORD = 'correct horse 42';

interface Credential {
  id: string;
  name: string;
  kind: 'basic' | 'token';
  nodeUser?: string;
  nodePass?: string;
  token?: string;
  urls?: { jsonRpc: string; rest?: string; plain?: { jsonRpc: string } };
  readyLines?: { name: string; line: string }[];
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
    expect(none).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/IP allowlist:\s+any address\n[\s\S]*Rate:\s+the platform's\nLargest answer:\s+the platform's\n/),
    });

    const set = await cli(['--json', 'nodes', 'access', nodeId, '--refuse-method', 'getBlockHash', 'getmempoolinfo', '--rate', '50', '--max-answer', '65536']);
    expect([set.code, set.json()]).toEqual([
      0,
      { ipAllowlist: [], originAllowlist: [], refusedMethods: ['getblockhash', 'getmempoolinfo'], ratePerSecond: 50, maxAnswerBytes: 65_536 },
    ]);
    expect((await cli(['nodes', 'access', nodeId])).stdout).toMatch(/Largest answer:\s+65536 bytes\n/);
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
    expect(cleared.json()).toEqual({ ipAllowlist: [], originAllowlist: [], refusedMethods: [], ratePerSecond: null, maxAnswerBytes: null });
  });

  it('creates, lists and removes named credentials; cloud rpc goes on with the one it kept', async () => {
    const created = await cli(['--json', 'nodes', 'credentials', 'create', nodeId, 'ci']);
    expect([created.code, created.json<Credential>()]).toEqual([0, expect.objectContaining({ name: 'ci', nodePass: expect.any(String) })]);
    const listed = (await cli(['--json', 'nodes', 'credentials', 'list', nodeId])).json<Credential[]>();
    expect(listed.map((each) => each.name)).toEqual(['default', 'ci']);
    expect(listed.every((each) => each.nodePass === undefined)).toBe(true);

    const removed = await cli(['nodes', 'credentials', 'remove', nodeId, 'default']);
    expect(removed).toMatchObject({
      code: 0,
      stderr: expect.stringContaining(`Revoked default (${listed[0]!.id})`),
      stdout: expect.stringMatching(/^ID +NAME +KIND +NODE USER +CREATED\n\S+ +ci +Basic +/),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await cli(['--json', 'rpc', nodeId, 'getblockcount'])).code).toBe(0);

    const unknown = await cli(['nodes', 'credentials', 'remove', nodeId, 'nope']);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining(`node ${nodeId} has no credential nope`) });
    const last = await cli(['--json', 'nodes', 'credentials', 'remove', nodeId, 'ci']);
    expect(last.json()).toEqual({ error: expect.objectContaining({ code: 'Conflict', status: 409 }) });
  });

  it('rotates a Basic credential in place: same user, a new password kept for cloud rpc, the old one refused', async () => {
    const before = (await cli(['--json', 'nodes', 'credentials', 'list', nodeId])).json<Credential[]>();
    const rotated = await cli(['nodes', 'credentials', 'rotate', nodeId, 'ci']);
    expect(rotated).toMatchObject({ code: 0, stderr: expect.stringContaining('shown only now; it is also kept') });
    expect(rotated.stdout).toMatch(/^Id: +cred-\S+\nName: +ci\nKind: +Basic\nNode user: +u[0-9a-f]{16}\nNode password: +\S{43}\n/);
    expect(rotated.stdout).toContain(`Node user:     ${before[0]!.nodeUser}`);
    // The lines ready to paste: curl on TLS with the CA, bitcoin-cli on the plain HTTP address.
    expect(rotated.stdout).toMatch(
      /\nReady to paste:\n# curl\ncurl -sS --cacert \S+ -u \S+ .*getblockcount.* https:\/\/127\.0\.0\.1:\d+\/\n# bitcoin-cli \(plain HTTP, answered to loopback callers only\)\nbitcoin-cli -rpcconnect=127\.0\.0\.1 -rpcport=\d+ -rpcuser=u[0-9a-f]{16} -rpcpassword=\S+ getblockcount\n/,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the proxy hears the new revision
    expect((await cli(['--json', 'rpc', nodeId, 'getblockcount'])).code).toBe(0);
    const after = (await cli(['--json', 'nodes', 'credentials', 'list', nodeId])).json<Credential[]>();
    expect(after).toEqual(before);
  });

  it('creates a URL token, shown once with its URLs and lines ready to paste, lists it without the token, rotates and removes it', async () => {
    const created = await cli(['--json', 'nodes', 'credentials', 'create', nodeId, 'dapp', '--token']);
    expect(created.code).toBe(0);
    const token = created.json<Credential>();
    expect(token).toMatchObject({ name: 'dapp', kind: 'token', token: expect.stringMatching(/^nt_[A-Za-z0-9_-]{43}$/) });
    expect(token.urls!.jsonRpc).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:\\d+/${token.token}$`));
    expect(token.urls!.rest).toBe(`${token.urls!.jsonRpc}/rest/`);
    expect(token.readyLines!.map((each) => each.name)).toEqual(['curl']);
    expect(token.readyLines![0]!.line).toContain(` ${token.urls!.jsonRpc}`);

    // cloud rpc goes on with the token it kept, at the token's URL (the proxy routes by it alone).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const viaToken = await cli(['--json', 'rpc', nodeId, 'getblockcount']);
    expect([viaToken.code, typeof viaToken.json()]).toEqual([0, 'number']);

    const listed = await cli(['nodes', 'credentials', 'list', nodeId]);
    expect(listed.stdout).toMatch(/\n\S+ +dapp +URL token +- +/);
    expect(listed.stdout + listed.stderr).not.toContain(token.token);

    const rotated = await cli(['nodes', 'credentials', 'rotate', nodeId, 'dapp']);
    expect(rotated.code).toBe(0);
    const fresh = /Token: +(nt_\S+)/.exec(rotated.stdout)?.[1];
    expect(fresh).toMatch(/^nt_[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token.token);
    expect(rotated.stdout).toContain(`JSON-RPC:              ${token.urls!.jsonRpc.replace(token.token!, fresh!)}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await cli(['--json', 'rpc', nodeId, 'getblockcount'])).code).toBe(0);

    expect((await cli(['nodes', 'credentials', 'remove', nodeId, 'dapp'])).code).toBe(0);
  });
});
