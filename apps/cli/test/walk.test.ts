import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { startTestPlatform, unusedPortUrl, type TestPlatform } from '@cloud/all-in-one/testing';
import { cliFor } from './support/cli-runner';

// `cloud` against the real services (embedded defaults): the README's walk from sign-up to an
// RPC answer through the node-proxy, with --json output parsed and checked, then the failures a
// user meets, each with its exit code.

const PASSWORD = 'correct horse 42';

interface NodeJson {
  id: string;
  image: string;
  state: string;
  address: string;
  ports: { jsonRpc: number };
  nodeUser?: string;
  nodePass?: string;
}

describe('cloud against the platform', () => {
  let platform: TestPlatform;
  const failingSoftware = path.join(mkdtempSync(path.join(os.tmpdir(), 'failing-litecoind-')), 'litecoind');
  beforeAll(async () => {
    // ltc nodes of this platform fail at start (the node software exits), for --wait's failure path.
    writeFileSync(
      failingSoftware,
      '#!/bin/sh\ncase "$1" in -version|--version) echo "Litecoin Core version v0.21.2"; exit 0;; esac\necho "Error: cannot obtain a lock on the data directory" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    platform = await startTestPlatform({ MAX_NODES_PER_USER: '1', LITECOIND_PATH: failingSoftware });
  });
  afterAll(async () => {
    await platform?.stop();
    rmSync(path.dirname(failingSoftware), { recursive: true, force: true });
  });

  /** A user of the CLI who has signed up, verified and logged in. */
  const loggedIn = async (email: string) => {
    const user = cliFor(platform);
    expect((await user.cli(['signup', email, '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    const { link } = await platform.verificationFor(email);
    expect((await user.cli(['verify', link])).code).toBe(0);
    expect((await user.cli(['login', email, '--password-stdin'], `${PASSWORD}\n`)).code).toBe(0);
    return user;
  };

  it('lists the chains without a session, and stores none', async () => {
    const { cli, configFile, cleanUp } = cliFor(platform);
    try {
      const chains = await cli(['--json', 'chains']);
      expect(chains.code).toBe(0);
      expect(chains.json<Array<{ image: string }>>().map((option) => option.image)).toEqual(expect.arrayContaining(['btc', 'ltc', 'eth']));
      const stored = existsSync(configFile) ? (JSON.parse(readFileSync(configFile, 'utf8')) as { session?: unknown }) : {};
      expect(stored.session).toBeUndefined();
    } finally {
      cleanUp();
    }
  });

  it('walks from signup to getblockcount through the proxy and nodes remove, as the README does', async () => {
    const { cli, configFile, home, cleanUp } = cliFor(platform);
    try {
      const signup = await cli(['--json', 'signup', 'walk@example.com', '--name', 'Ada', '--password-stdin'], `${PASSWORD}\n`);
      expect(signup.code).toBe(0);
      const profile = signup.json<{ id: string; email: string; displayName: string; verifiedAt: string | null }>();
      expect(profile).toMatchObject({ id: expect.stringMatching(/^user-/), email: 'walk@example.com', displayName: 'Ada', verifiedAt: null });

      const notYet = await cli(['login', 'walk@example.com', '--password-stdin'], PASSWORD);
      expect(notYet).toMatchObject({ code: 4, stderr: expect.stringContaining('verify your e-mail address') });

      const { link, userId } = await platform.verificationFor('walk@example.com');
      expect(userId).toBe(profile.id);
      const verified = await cli(['--json', 'verify', link]);
      expect(verified.code).toBe(0);
      expect(verified.json<{ verifiedAt: string }>().verifiedAt).toEqual(expect.any(String));

      const login = await cli(['--json', 'login', 'walk@example.com', '--password-stdin'], `${PASSWORD}\n`);
      expect(login.code).toBe(0);
      expect(login.json()).toEqual({ user: profile.id, email: 'walk@example.com', config: configFile });
      // Tokens are kept owner-only, and no password is among them.
      expect(statSync(configFile).mode & 0o777).toBe(0o600);
      expect(statSync(configFile.replace(/\/config\.json$/, '')).mode & 0o777).toBe(0o700);
      const stored = readFileSync(configFile, 'utf8');
      expect(stored).not.toContain(PASSWORD);
      expect(JSON.parse(stored)).toMatchObject({ accountsUrl: platform.urls.accounts, session: { userId: profile.id, refreshToken: expect.any(String) } });

      const chains = await cli(['--json', 'chains']);
      expect(chains.json<Array<{ image: string }>>().map((option) => option.image)).toEqual(expect.arrayContaining(['btc', 'ltc', 'eth']));

      const created = await cli(['--json', 'nodes', 'create', 'btc', '--wait']);
      expect(created.code).toBe(0);
      const node = created.json<NodeJson>();
      expect(node).toMatchObject({
        image: 'btc',
        state: 'running',
        address: `${node.id}.nodes.localhost`,
        ports: { jsonRpc: 8332 },
        nodeUser: expect.any(String),
        nodePass: expect.any(String),
      });
      // The password shown once is kept (0600) for `cloud rpc`.
      expect(JSON.parse(readFileSync(configFile, 'utf8')).nodeCredentials).toEqual({ [node.id]: { user: node.nodeUser, pass: node.nodePass } });

      const count = await cli(['--json', 'rpc', node.id, 'getblockcount']);
      expect(count.code).toBe(0);
      expect(count.json()).toEqual(expect.any(Number));
      const hash = await cli(['rpc', node.id, 'getblockhash', '0']);
      expect(hash).toMatchObject({ code: 0, stdout: expect.stringMatching(/^[0-9a-f]{64}\n$/) });
      const block = await cli(['--json', 'rpc', node.id, 'getblock', hash.stdout.trim(), 'true']);
      expect(block.json<{ hash: string; height: number }>()).toMatchObject({ hash: hash.stdout.trim(), height: 0 });
      const blocked = await cli(['rpc', node.id, 'stop']);
      expect(blocked).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'cloud: the node answered error -32601: method "stop" is not allowed on this hosted node\n',
      });

      // Trusting some other CA instead of the dev proxy's own certificate: the message says what to trust.
      const otherCa = path.join(home, 'other-ca.pem');
      writeFileSync(otherCa, rootCertificates[0]!);
      const untrusted = await cli(['rpc', node.id, 'getblockcount'], '', { CLOUD_PROXY_CA: otherCa });
      expect(untrusted).toMatchObject({
        code: 8,
        stderr: expect.stringContaining("not trusted; for a dev platform's proxy give --proxy-ca .data/tls/proxy-cert.pem"),
      });

      const list = await cli(['--json', 'nodes', 'list']);
      expect(list.json<NodeJson[]>().map((listed) => [listed.id, listed.state])).toEqual([[node.id, 'running']]);
      const table = await cli(['nodes', 'list']);
      expect(table.stdout).toMatch(
        new RegExp(
          `^ID\\s+NAME\\s+IMAGE\\s+STATE\\s+NETWORK\\s+ADDRESS\\s+PORT\\s+CREATED\\n${node.id}\\s+-\\s+btc\\s+running\\s+btc dev chain \\(regtest\\)\\s+${node.address.replace(/\./g, '\\.')}\\s+8332\\s`,
        ),
      );
      const info = await cli(['--json', 'nodes', 'info', node.id]);
      expect(info.json<NodeJson>()).toMatchObject({ id: node.id, state: 'running', dev: true, txindex: false, sync: { syncing: false, progress: 1 } });
      const human = await cli(['nodes', 'info', node.id]);
      expect(human.stdout).toMatch(/^Network:\s+btc dev chain \(regtest\)$/m);
      expect(human.stdout).toMatch(/^Sync:\s+synced \[#{20}\] 100\.0% height \d+\/\d+, 0 peers$/m);
      expect(info.json<NodeJson>().nodePass).toBeUndefined();
      const logs = await cli(['--json', 'nodes', 'logs', node.id, '--lines', '2']);
      expect(logs.json<string[]>().length).toBeGreaterThan(0);
      expect(logs.json<string[]>().length).toBeLessThanOrEqual(2);

      const token = await cli(['token']);
      expect(token.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      const keys = await cli(['--json', 'keys', 'list']);
      expect(keys.json<Array<{ id: string }>>().map((key) => key.id)).toEqual([JSON.parse(readFileSync(configFile, 'utf8')).session.clientId]);
      const events = await cli(['--json', 'events', '--service', 'cloud-accounts', '--limit', '3']);
      expect(events.json<Array<{ service: string; user: string }>>()).toEqual(
        [1, 2, 3].map(() => expect.objectContaining({ service: 'cloud-accounts', user: profile.id })),
      );

      const removed = await cli(['--json', 'nodes', 'remove', node.id]);
      expect(removed.code).toBe(0);
      expect(removed.json<NodeJson>()).toMatchObject({ id: node.id, state: 'deleting' });
      expect(JSON.parse(readFileSync(configFile, 'utf8')).nodeCredentials).toEqual({});
      let gone = await cli(['--json', 'nodes', 'info', node.id]);
      for (let tries = 0; gone.code === 0 && tries < 150; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        gone = await cli(['--json', 'nodes', 'info', node.id]);
      }
      expect(gone.code).toBe(5);
      expect(gone.json()).toEqual({ error: { code: 'NotFound', message: expect.stringContaining('no node node-'), status: 404, exitCode: 5 } });

      const logout = await cli(['--json', 'logout']);
      expect(logout.json()).toEqual({ loggedOut: true, revoked: true });
      expect(JSON.parse(readFileSync(configFile, 'utf8')).session).toBeUndefined();
      const after = await cli(['nodes', 'list']);
      expect(after).toMatchObject({ code: 3, stdout: '', stderr: 'cloud: not logged in; run "cloud login"\n' });
    } finally {
      cleanUp();
    }
  });

  it('shows people tables and records, and keeps stdout for results', async () => {
    const { cli, cleanUp } = await loggedIn('human@example.com');
    try {
      const profile = await cli(['profile', '--name', 'Grace', '--country', 'NL']);
      expect(profile.code).toBe(0);
      expect(profile.stdout).toMatch(/^User id:\s+user-/m);
      expect(profile.stdout).toMatch(/^Name:\s+Grace$/m);
      expect(profile.stdout).toMatch(/^Billing address:\s+NL$/m);
      const none = await cli(['nodes', 'list']);
      expect(none).toMatchObject({ code: 0, stdout: '', stderr: expect.stringContaining('No nodes.') });
      const chains = await cli(['chains']);
      expect(chains.stdout).toMatch(/^IMAGE\s+NETWORK\s+SOFTWARE\n/);
      // The walk's platform runs LOCAL_NETWORKS=dev: every chain says plainly that it is a dev chain, and none says mainnet.
      expect(chains.stdout).toMatch(/^btc\s+btc dev chain \(regtest\)\s+\S+$/m);
      expect(chains.stdout).toMatch(/^eth\s+eth dev chain \(anvil\)\s+\S+$/m);
      expect(
        chains.stdout
          .trim()
          .split('\n')
          .slice(1)
          .every((line) => / dev chain \(/.test(line)),
      ).toBe(true);
      expect(chains.stdout.replace(/^\S+/gm, '')).not.toMatch(/mainnet|testnet/); // past the IMAGE column (btctestnet is a name)
    } finally {
      cleanUp();
    }
  });

  it('manages keys, the password and the e-mail verification from the command line', async () => {
    const { cli, configFile, cleanUp } = await loggedIn('account@example.com');
    try {
      const created = await cli(['--json', 'keys', 'create']);
      const key = created.json<{ clientId: string; clientSecret: string }>();
      expect(key).toMatchObject({ clientId: expect.stringMatching(/^.{40}$/), clientSecret: expect.stringMatching(/^.{80}$/) });
      const sessionKey = JSON.parse(readFileSync(configFile, 'utf8')).session.clientId as string;
      expect(
        (await cli(['--json', 'keys', 'list']))
          .json<Array<{ id: string }>>()
          .map((one) => one.id)
          .sort(),
      ).toEqual([key.clientId, sessionKey].sort());
      const human = await cli(['keys', 'list']);
      expect(human.stdout).toContain(`${sessionKey} (this CLI)`);
      expect((await cli(['keys', 'remove', key.clientId])).code).toBe(0);
      expect(await cli(['keys', 'remove', key.clientId])).toMatchObject({ code: 5 });

      const changed = await cli(['--json', 'password', '--password-stdin'], `${PASSWORD}\nan even better passphrase 9\n`);
      // The change deleted every client key of the account, the session's own too (issue 29, item 3)…
      expect(changed.json()).toEqual({ changed: true, ended: { clientKeys: 1, clientKeyIds: [sessionKey], tokensIssuedBefore: expect.any(String) } });
      // …and the session goes on with a new client key; the old one is gone.
      const after = JSON.parse(readFileSync(configFile, 'utf8')).session.clientId as string;
      expect(after).not.toBe(sessionKey);
      expect((await cli(['--json', 'keys', 'list'])).json<Array<{ id: string }>>().map((one) => one.id)).toEqual([after]);
      expect((await cli(['--json', 'nodes', 'list'])).json()).toEqual([]);
      expect(await cli(['password', '--password-stdin'], 'only one line\n')).toMatchObject({ code: 2, stderr: expect.stringContaining('two lines') });
      expect(await cli(['password', '--password-stdin'], `${PASSWORD}\nwhatever else 12\n`)).toMatchObject({
        code: 4,
        stderr: expect.stringContaining('old password is wrong'),
      });

      expect(await cli(['verify', 'account@example.com', '--resend'])).toMatchObject({ code: 6, stderr: expect.stringContaining('verified already') });
    } finally {
      cleanUp();
    }
  });

  it('resets a forgotten password with the e-mailed link, which works once and ends every session', async () => {
    const email = 'forgetful@example.com';
    const NEW = 'a fresh passphrase 10';
    const { cli, cleanUp } = await loggedIn(email);
    try {
      const asked = await cli(['password', 'reset', email]);
      expect(asked).toMatchObject({ code: 0, stderr: expect.stringContaining('cloud password reset --link') });
      const { link, userId, token } = await platform.passwordResetFor(email);
      // The e-mail leads with the console's page (npm start serves one); the CLI takes it as well as the API's link.
      expect(new URL(link).pathname).toBe('/reset-password');
      expect(Object.fromEntries(new URL(link).searchParams)).toEqual({ user: userId, token });

      const reset = await cli(['--json', 'password', 'reset', '--link', link, '--password-stdin'], `${NEW}\n`);
      expect(reset).toMatchObject({ code: 0 });
      expect(reset.json()).toMatchObject({ reset: true, user: userId, ended: { clientKeys: 1 } });
      // The saved session's tokens were revoked with the old password.
      expect(await cli(['profile'])).toMatchObject({ code: 3 });
      expect(await cli(['password', 'reset', '--link', link, '--password-stdin'], 'another passphrase 11\n')).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('wrong, used or expired'),
      });
      expect(await cli(['login', email, '--password-stdin'], `${PASSWORD}\n`)).toMatchObject({ code: 3 });
      expect((await cli(['login', email, '--password-stdin'], `${NEW}\n`)).code).toBe(0);

      expect(await cli(['password', 'reset'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--link') });
      expect(await cli(['password', 'reset', '--link', 'not-a-link', '--password-stdin'], `${NEW}\n`)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('password-reset e-mail'),
      });
      // Unknown addresses get the same answer.
      expect(await cli(['--json', 'password', 'reset', 'nobody@example.com'])).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('if the address has an account'),
      });
    } finally {
      cleanUp();
    }
  });

  it('ends each failure with its message and exit code: 403 LimitExceeded, 404, 400, usage, network down', async () => {
    const { cli, cleanUp } = await loggedIn('limits@example.com');
    try {
      const first = await cli(['--json', 'nodes', 'create', 'eth']);
      expect(first.code).toBe(0);
      const second = await cli(['nodes', 'create', 'eth']);
      expect(second).toMatchObject({ code: 4, stdout: '', stderr: expect.stringMatching(/^cloud: limit reached: .+\n$/) });
      const secondJson = await cli(['--json', 'nodes', 'create', 'eth']);
      expect(secondJson.json()).toMatchObject({ error: { code: 'LimitExceeded', status: 403, exitCode: 4 } });
      expect((await cli(['nodes', 'remove', first.json<NodeJson>().id])).code).toBe(0);

      expect(await cli(['nodes', 'info', 'node-00000000-0000-4000-8000-000000000000'])).toMatchObject({
        code: 5,
        stderr: expect.stringContaining('no node node-'),
      });
      expect(await cli(['nodes', 'create', 'doge'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Allowed choices are btc') });
      expect(await cli(['nodes', 'logs', 'node-1', '--lines', 'many'])).toMatchObject({ code: 2, stderr: expect.stringContaining('whole number') });
      expect(await cli(['validators', 'limits', 'moon'])).toMatchObject({ code: 5 });
      expect(await cli(['rpc', 'node-00000000-0000-4000-8000-000000000000', 'getblockcount'])).toMatchObject({ code: 5 });
      expect(await cli(['verify', 'not-a-link'])).toMatchObject({ code: 2, stderr: expect.stringContaining('link from the verification e-mail') });
      expect(await cli(['signup', 'x@example.com'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--password-stdin') });
      // A refused login says what to check, not to run the command just run.
      const refusedLogin = await cli(['login', 'limits@example.com', '--password-stdin'], 'wrong password\n');
      expect(refusedLogin).toMatchObject({ code: 3, stderr: expect.stringContaining('check the e-mail address (or user id) and the password') });
      expect(refusedLogin.stderr).not.toContain('run "cloud login"');
      expect(await cli(['--json', 'signup', 'not-an-address', '--password-stdin'], PASSWORD)).toMatchObject({
        code: 2,
        stdout: expect.stringContaining('"InvalidInput"'),
      });
      expect(await cli(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'frobnicate'") });
      expect(await cli(['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: cloud') });
    } finally {
      cleanUp();
    }

    const closed = await unusedPortUrl();
    const down = cliFor(platform, { CLOUD_ACCOUNTS_URL: closed });
    try {
      const unreachable = await down.cli(['login', 'a@example.com', '--password-stdin'], PASSWORD);
      expect(unreachable).toMatchObject({ code: 8, stderr: expect.stringContaining(`cannot reach the accounts service at ${closed}: connect ECONNREFUSED`) });
    } finally {
      down.cleanUp();
    }
  });

  it('exits 9 when a node it waits for fails, with the reason', async () => {
    const { cli, cleanUp } = await loggedIn('failing@example.com');
    try {
      const failed = await cli(['nodes', 'create', 'ltc', '--wait']);
      expect(failed).toMatchObject({ code: 9, stderr: expect.stringMatching(/cloud: node-\S+ failed: .*cannot obtain a lock/) });
      // Off a terminal, progress is one line per state, on stderr; stdout stays empty.
      expect(failed.stdout).toBe('');
      expect(failed.stderr).toMatch(/^node-\S+: provisioning\n/);
      const [node] = (await cli(['--json', 'nodes', 'list'])).json<NodeJson[]>();
      expect(node).toMatchObject({ image: 'ltc', state: 'failed' });
      expect((await cli(['nodes', 'remove', node!.id])).code).toBe(0);
    } finally {
      cleanUp();
    }
  });

  it('creates a Fuji validator, reaches its node with cloud rpc and removes it', async () => {
    const { cli, cleanUp } = await loggedIn('validator@example.com');
    try {
      const limits = await cli(['--json', 'validators', 'limits', 'fuji']);
      expect(limits.json()).toMatchObject({ chain: 'avalanche', network: 'fuji', minimumStake: { avax: 1 } });

      const created = await cli(['--json', 'validators', 'create', 'fuji', '--wait']);
      expect(created.code).toBe(0);
      const validator = created.json<{ nodeId: string; chainNodeId: string; state: string; nodePass: string }>();
      expect(validator).toMatchObject({
        nodeId: expect.stringMatching(/^node-/),
        chainNodeId: expect.stringMatching(/^NodeID-/),
        state: 'running',
        nodePass: expect.any(String),
      });

      const nodeId = await cli(['--json', 'rpc', validator.nodeId, 'info.getNodeID']);
      expect(nodeId.json()).toMatchObject({ nodeID: validator.chainNodeId });
      const listed = await cli(['--json', 'validators', 'list']);
      expect(listed.json<Array<{ nodeId: string }>>().map((one) => one.nodeId)).toEqual([validator.nodeId]);
      const info = await cli(['--json', 'validators', 'info', validator.nodeId]);
      expect(info.json()).toMatchObject({ nodeId: validator.nodeId, registration: { status: 'unregistered' } });

      const removed = await cli(['--json', 'validators', 'remove', validator.nodeId]);
      expect(removed.code).toBe(0);
      expect(removed.json()).toMatchObject({ nodeId: validator.nodeId });
      expect((await cli(['validators', 'info', validator.nodeId])).code).toBe(5);
    } finally {
      cleanUp();
    }
  });
});
