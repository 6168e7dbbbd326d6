import { Secret, TOTP } from 'otpauth';
import { startTestPlatform, unusedPortUrl, type TestPlatform } from '@cloud/all-in-one/testing';
import {
  CloudClient,
  ConflictError,
  InvalidInputError,
  LimitExceededError,
  NodeRpcError,
  NotFoundError,
  NotLoggedInError,
  TwoFactorRequiredError,
  UnauthorizedError,
  type Session,
} from '@cloud/sdk';

// The SDK against the real services (embedded defaults), from sign-up to an RPC answer through
// the node-proxy, and the token dance around it.

const PASSWORD = 'correct horse 42';

describe('CloudClient against the platform', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ MAX_NODES_PER_USER: '1' });
  });
  afterAll(() => platform?.stop());

  /** A client of this platform, its session changes recorded. */
  const client = (session?: Session) => {
    const sessions: Array<Session | undefined> = [];
    const cloud = new CloudClient({
      accountsUrl: platform.urls.accounts,
      nodesUrl: platform.urls.nodes,
      stakingUrl: platform.urls.staking,
      session,
      onSessionChange: (changed) => sessions.push(changed),
      proxy: { ca: platform.proxy.certificate },
    });
    return { cloud, sessions };
  };

  /** A signed-up, verified and logged-in user. */
  const loggedIn = async (email: string) => {
    const { cloud, sessions } = client();
    await cloud.accounts.signUp({ email, password: PASSWORD, displayName: 'Ada' });
    const { userId, token } = await platform.verificationFor(email);
    await cloud.accounts.verify(userId, token);
    await cloud.login(email, PASSWORD);
    return { cloud, sessions, userId };
  };

  it('walks from sign-up to getblockcount through the proxy, and removes the node', async () => {
    const { cloud } = client();
    const profile = await cloud.accounts.signUp({ email: 'walk@example.com', password: PASSWORD, displayName: 'Ada' });
    expect(profile).toMatchObject({ id: expect.stringMatching(/^user-/), email: 'walk@example.com', verifiedAt: null });

    await expect(cloud.login('walk@example.com', PASSWORD)).rejects.toMatchObject({ status: 403, code: 'UserNotVerified' });
    const { userId, token } = await platform.verificationFor('walk@example.com');
    expect(userId).toBe(profile.id);
    expect((await cloud.accounts.verify(userId, token)).verifiedAt).toEqual(expect.any(String));

    const me = await cloud.login('walk@example.com', PASSWORD);
    expect(me.id).toBe(profile.id);
    const session = cloud.currentSession()!;
    expect(session).toMatchObject({ userId: profile.id, email: 'walk@example.com', clientId: expect.stringMatching(/^.{40}$/) });
    // The session's client key is the account's only key; its secret is not kept.
    expect((await cloud.accounts.listClientKeys()).map((key) => key.id)).toEqual([session.clientId]);
    expect(JSON.stringify(session)).not.toContain('clientSecret');

    const chains = await cloud.nodes.chains();
    expect(chains.map((option) => option.image)).toEqual(expect.arrayContaining(['btc', 'ltc', 'eth']));

    const node = await cloud.nodes.create({ image: 'btc' });
    expect(node).toMatchObject({ image: 'btc', state: 'provisioning', address: `${node.id}.nodes.localhost`, ports: { jsonRpc: 8332 } });
    expect(node.nodeUser && node.nodePass).toBeTruthy();
    await expect(cloud.nodes.create({ image: 'eth' })).rejects.toBeInstanceOf(LimitExceededError);

    const states: string[] = [];
    const running = await cloud.nodes.waitUntilRunning(node.id, { intervalMs: 200, onState: (state) => states.push(state) });
    expect(running.state).toBe('running');
    expect(states.at(-1)).toBe('running');

    const basic = { user: node.nodeUser!, password: node.nodePass! };
    const height = await cloud.rpc(running, 'getblockcount', [], basic);
    expect(height).toEqual(expect.any(Number));
    expect(await cloud.rpc(running, 'getblockhash', [0], basic)).toMatch(/^[0-9a-f]{64}$/);
    await expect(cloud.rpc(running, 'stop', [], basic)).rejects.toEqual(new NodeRpcError(-32601, 'method "stop" is not allowed on this hosted node'));
    await expect(cloud.rpc(running, 'getblockcount', [], { user: node.nodeUser!, password: 'wrong' })).rejects.toMatchObject({
      status: 401,
      service: 'node-proxy',
    });

    expect((await cloud.nodes.logs(node.id, 3)).length).toBeLessThanOrEqual(3);
    // Rotation: a new named credential, then the first revoked; the new one goes on working.
    const added = await cloud.nodes.createCredential(node.id, { name: 'ci' });
    expect(added).toMatchObject({ name: 'ci', kind: 'basic', nodeUser: expect.any(String), nodePass: expect.any(String) });
    if (added.kind !== 'basic') throw new Error('a Basic credential was asked for');
    const fresh = { user: added.nodeUser, password: added.nodePass };
    expect(await cloud.rpc(running, 'getblockcount', [], fresh)).toEqual(expect.any(Number));
    const [first] = await cloud.nodes.credentials(node.id);
    expect(first).toMatchObject({ name: 'default', nodeUser: node.nodeUser });
    expect((await cloud.nodes.removeCredential(node.id, first!.id)).map((each) => each.name)).toEqual(['ci']);
    const deadline0 = Date.now() + 5_000;
    let refused: unknown;
    while (!refused && Date.now() < deadline0)
      refused = await cloud.rpc(running, 'getblockcount', [], basic).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(await cloud.rpc(running, 'getblockcount', [], fresh)).toEqual(expect.any(Number));
    const access = await cloud.nodes.setAccess(node.id, { refusedMethods: ['getBlockHash'], ratePerSecond: 10 });
    expect(access.access).toEqual({ ipAllowlist: [], originAllowlist: [], refusedMethods: ['getblockhash'], ratePerSecond: 10, maxAnswerBytes: null });
    expect(await cloud.nodes.access(node.id)).toEqual(access.access);

    expect((await cloud.nodes.list()).map((listed) => listed.id)).toEqual([node.id]);
    expect((await cloud.nodes.remove(node.id)).state).toBe('deleting');
    const deadline = Date.now() + 30_000;
    let gone: unknown;
    while (!gone && Date.now() < deadline) {
      gone = await cloud.nodes.get(node.id).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (!gone) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ status: 404, code: 'NotFound', service: 'nodes' });

    const events = await cloud.accounts.events({ service: 'cloud-accounts', limit: 5 });
    expect(events).toHaveLength(5);
    expect(events.every((event) => event.service === 'cloud-accounts' && event.user === profile.id)).toBe(true);
  });

  it("calls a jwt node with the session's client access token instead of Basic credentials", async () => {
    const { cloud } = await loggedIn('jwt@example.com');
    const node = await cloud.nodes.create({ image: 'eth', jwt: true });
    expect(node).toMatchObject({ jwt: true, ports: { jsonRpc: 8545, webSocket: 8545 } });
    expect(node.nodePass).toBeUndefined();
    const running = await cloud.nodes.waitUntilRunning(node.id, { intervalMs: 200 });
    expect(await cloud.rpc(running, 'eth_blockNumber')).toMatch(/^0x[0-9a-f]+$/);
    await expect(cloud.rpc(running, 'eth_coinbase')).rejects.toMatchObject({ code: -32601 });
    await cloud.nodes.remove(node.id);
  });

  it('lists the chains without a session', async () => {
    const { cloud, sessions } = client();
    expect((await cloud.nodes.chains()).map((option) => option.image)).toEqual(expect.arrayContaining(['btc', 'ltc', 'eth']));
    expect(cloud.currentSession()).toBeUndefined();
    expect(sessions).toEqual([]);
  });

  it('refreshes an expired client token before use, and a refused one after a 401', async () => {
    const { cloud, sessions } = await loggedIn('tokens@example.com');
    const session = cloud.currentSession()!;
    // A token whose exp has passed is renewed before the call, without sending it.
    const expired = ['e30', Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 10 })).toString('base64url'), 'sig'].join('.');
    const { cloud: later } = client({ ...session, clientAccessToken: expired });
    expect(await later.nodes.list()).toEqual([]);
    expect(later.currentSession()!.clientAccessToken).not.toBe(expired);
    // A token the server refuses (here: not even signed) is replaced once, and the call succeeds.
    const { cloud: refused } = client({ ...session, clientAccessToken: 'a.b.c' });
    expect(await refused.nodes.list()).toEqual([]);
    expect(refused.currentSession()!.clientAccessToken).not.toBe('a.b.c');
    expect(sessions.at(-1)).toEqual(session);
  });

  it('mints a new client key after a password change revoked the old tokens', async () => {
    const { cloud } = await loggedIn('password@example.com');
    const before = cloud.currentSession()!;
    const changed = await cloud.accounts.changePassword(PASSWORD, 'a much better passphrase 7');
    // The change deleted the session's key (every key of the account): the session made a new one.
    expect(changed.ended).toMatchObject({ clientKeys: 1, clientKeyIds: [before.clientId] });
    const after = cloud.currentSession()!;
    expect(after.clientId).not.toBe(before.clientId);
    expect(after.accountToken).not.toBe(before.accountToken);
    expect((await cloud.accounts.listClientKeys()).map((key) => key.id)).toEqual([after.clientId]);
    expect(await cloud.nodes.list()).toEqual([]);
    // The old session's refresh token was revoked with the password change.
    const { cloud: stale } = client({ ...before, accountToken: undefined, clientAccessToken: undefined });
    await expect(stale.nodes.list()).rejects.toBeInstanceOf(NotLoggedInError);
  });

  it('resets a forgotten password by e-mail; the old session stops working', async () => {
    const { cloud } = await loggedIn('forgot@example.com');
    const { cloud: anonymous } = client();
    expect(await anonymous.accounts.requestPasswordReset('forgot@example.com')).toEqual({
      message: 'if the address has an account, a password-reset e-mail is on its way',
    });
    const { userId, token } = await platform.passwordResetFor('forgot@example.com');
    await expect(anonymous.accounts.resetPassword(userId, token, 'short')).rejects.toBeInstanceOf(InvalidInputError);
    const reset = await anonymous.accounts.resetPassword(userId, token, 'a remembered passphrase 3');
    expect(reset.ended).toMatchObject({ clientKeys: 1, clientKeyIds: [cloud.currentSession()!.clientId] });
    await expect(anonymous.accounts.resetPassword(userId, token, 'a remembered passphrase 3')).rejects.toMatchObject({
      status: 400,
      code: 'InvalidResetToken',
    });
    await expect(cloud.accounts.profile()).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(anonymous.login('forgot@example.com', PASSWORD)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await anonymous.login('forgot@example.com', 'a remembered passphrase 3')).id).toBe(userId);
  });

  it("logs out by deleting the session's client key, which revokes its tokens", async () => {
    const { cloud, sessions } = await loggedIn('logout@example.com');
    const session = cloud.currentSession()!;
    expect(await cloud.logout()).toEqual({ revoked: true });
    expect(cloud.currentSession()).toBeUndefined();
    expect(sessions.at(-1)).toBeUndefined();
    await expect(cloud.nodes.list()).rejects.toBeInstanceOf(NotLoggedInError);
    await expect(cloud.accounts.profile()).rejects.toBeInstanceOf(NotLoggedInError);
    // Whoever copied the tokens can't use them either: the refresh token is revoked with the key.
    const { cloud: copy } = client({ ...session, accountToken: undefined });
    await expect(copy.nodes.list()).rejects.toBeInstanceOf(NotLoggedInError);
  });

  it('surfaces error answers as typed errors with code, message and status', async () => {
    const { cloud } = client();
    await expect(cloud.accounts.signUp({ email: 'not-an-address', password: PASSWORD, displayName: 'X' })).rejects.toMatchObject({
      constructor: InvalidInputError,
      status: 400,
      code: 'InvalidInput',
      message: expect.stringContaining('email'),
      service: 'accounts',
    });
    await expect(cloud.login('nobody@example.com', PASSWORD)).rejects.toMatchObject({ constructor: UnauthorizedError, status: 401, code: 'Unauthorized' });
    await expect(cloud.nodes.list()).rejects.toBeInstanceOf(NotLoggedInError);

    const { cloud: user } = await loggedIn('errors@example.com');
    await expect(user.nodes.get('node-00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    await expect(user.accounts.verify('errors@example.com', 'whatever')).rejects.toMatchObject({
      status: 409,
      code: 'UserVerified',
      constructor: ConflictError,
    });
  });

  it('enrols two-factor login, then logs in only with a code (TwoFactorRequiredError without), and turns it off', async () => {
    const { cloud } = await loggedIn('two-factor@example.com');
    const { secret, uri } = await cloud.accounts.enrolTwoFactor(PASSWORD);
    expect(uri).toBe(new TOTP({ issuer: 'Cloud Nodes', label: 'two-factor@example.com', secret: Secret.fromBase32(secret) }).toString());
    expect(await cloud.accounts.twoFactorStatus()).toEqual({ enabled: false, pending: true, recoveryCodesLeft: 0 });
    // The authenticator app's code, computed here from the secret; the next step's code is also
    // taken (clocks drift), and is not the one used up by the confirmation.
    const codeAt = (ms: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });
    const before = cloud.currentSession()!;
    const { recoveryCodes, ended } = await cloud.accounts.confirmTwoFactor(codeAt(Date.now()));
    expect(recoveryCodes).toHaveLength(10);
    // Turning it on ended every token and client key from before; this session went on with new ones.
    expect(ended).toMatchObject({ clientKeys: 1, clientKeyIds: [before.clientId] });
    expect(cloud.currentSession()!.clientId).not.toBe(before.clientId);
    expect((await cloud.accounts.profile()).twoFactor).toBe(true);
    expect(await cloud.nodes.list()).toEqual([]);

    const { cloud: other } = client();
    await expect(other.login('two-factor@example.com', PASSWORD)).rejects.toMatchObject({
      constructor: TwoFactorRequiredError,
      status: 401,
      code: 'TwoFactorRequired',
    });
    await expect(other.login('two-factor@example.com', PASSWORD, { code: 'wrong-code' })).rejects.toMatchObject({
      constructor: UnauthorizedError,
      code: 'InvalidTwoFactorCode',
    });
    expect(other.currentSession()).toBeUndefined();
    const me = await other.login('two-factor@example.com', PASSWORD, { code: codeAt(Date.now() + 30_000) });
    expect(me).toMatchObject({ email: 'two-factor@example.com', twoFactor: true });
    expect(other.currentSession()).toMatchObject({ userId: me.id, clientId: expect.any(String) });

    await expect(other.accounts.disableTwoFactor(PASSWORD, 'wrong-code')).rejects.toMatchObject({ status: 403, code: 'InvalidTwoFactorCode' });
    await other.accounts.disableTwoFactor(PASSWORD, recoveryCodes[0]!);
    expect(await other.accounts.twoFactorStatus()).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0 });
    expect((await client().cloud.login('two-factor@example.com', PASSWORD)).twoFactor).toBe(false);
  });

  it('reports a service it cannot reach as UnreachableError, naming the address', async () => {
    const url = await unusedPortUrl();
    const cloud = new CloudClient({ accountsUrl: url, timeoutMs: 5000 });
    await expect(cloud.login('a@example.com', PASSWORD)).rejects.toMatchObject({
      name: 'UnreachableError',
      service: 'accounts',
      url,
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('creates a Fuji validator, reaches its node through the proxy and removes it', async () => {
    const { cloud } = await loggedIn('staking@example.com');
    expect(await cloud.staking.networks()).toEqual(expect.arrayContaining([{ chain: 'avalanche', network: 'fuji' }]));
    expect((await cloud.staking.limits('fuji')).minimumStake.avax).toBe(1);

    const validator = await cloud.staking.create('fuji');
    expect(validator).toMatchObject({
      nodeId: expect.stringMatching(/^node-/),
      chainNodeId: expect.stringMatching(/^NodeID-/),
      ports: { jsonRpc: 9650, management: 8080 },
    });
    const running = await cloud.staking.waitUntilRunning('fuji', validator.nodeId, { intervalMs: 200 });
    expect((await cloud.staking.find(validator.nodeId)).nodeId).toBe(validator.nodeId);

    const basic = { user: validator.nodeUser, password: validator.nodePass! };
    expect(await cloud.rpc(running, 'info.getNodeID', {}, basic)).toMatchObject({ nodeID: validator.chainNodeId });
    expect(await cloud.management(running, '/status', basic)).toBe('healthy');
    await expect(cloud.rpc(running, 'platform.exportKey', {}, basic)).rejects.toMatchObject({ code: -32601 });

    expect((await cloud.staking.remove('fuji', validator.nodeId)).nodeId).toBe(validator.nodeId);
    await expect(cloud.staking.get('fuji', validator.nodeId)).rejects.toBeInstanceOf(NotFoundError);
  });
});
