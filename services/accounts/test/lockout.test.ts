import { PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

// Client addresses come from X-Forwarded-For: TRUST_PROXY is on, as behind an ingress.
const WRONG = 'wrong horse battery 99';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('login throttle: per (account, address), per address, and a per-account ceiling', () => {
  let t: TestAccounts;
  const login = (from: string, user: string, password: string) => t.http.post('/auth').set('x-forwarded-for', from).set('authorization', basic(user, password));
  beforeAll(async () => {
    t = await startTestAccounts({
      TRUST_PROXY: 'true',
      LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '5',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '6',
      LOGIN_BLOCK_SECONDS: '600',
    });
  });
  afterAll(() => t.close());

  it("locks the attacker's address out of the account, while the owner still logs in from their own", async () => {
    const owner = await verifiedUser(t, uniqueEmail('owner'));
    expect((await login('10.1.0.1', owner.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await login('10.66.0.1', owner.email, `${WRONG}-${i}`)).status).toBe(401);

    // The attacker's address is refused even with the right password...
    const refused = await login('10.66.0.1', owner.id, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 'TooManyRequests', message: 'too many failed logins; try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(590);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(600);
    // ...the owner is not, from the address they use or from one they have not used before.
    expect((await login('10.1.0.1', owner.email, PASSWORD)).status).toBe(200);
    expect((await login('10.1.0.2', owner.email, PASSWORD)).status).toBe(200);
    // The attacker's address may still log in to an account it has not been guessing.
    const neighbour = await verifiedUser(t, uniqueEmail('neighbour'));
    expect((await login('10.66.0.1', neighbour.email, PASSWORD)).status).toBe(200);
  });

  it('refuses every login from an address past 5 failures over several accounts; other addresses are unaffected', async () => {
    const user = await verifiedUser(t, uniqueEmail('sprayed'));
    for (let i = 0; i < 5; i += 1) expect((await login('10.66.0.2', uniqueEmail('spray'), WRONG)).status).toBe(401);
    expect((await login('10.66.0.2', user.email, PASSWORD)).status).toBe(429);
    expect((await login('10.66.0.3', user.email, PASSWORD)).status).toBe(200);
  });

  it('past 6 failures of one account from many addresses, refuses new addresses but lets in one it logged in from', async () => {
    const owner = await verifiedUser(t, uniqueEmail('distributed'));
    expect((await login('10.1.1.1', owner.email, PASSWORD)).status).toBe(200);
    for (let i = 1; i <= 6; i += 1) expect((await login(`10.77.0.${i}`, owner.email, WRONG)).status).toBe(401);

    const fromNewAddress = await login('10.77.0.7', owner.email, PASSWORD);
    expect(fromNewAddress.status).toBe(429);
    expect(Number(fromNewAddress.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('10.1.1.1', owner.email, PASSWORD)).status).toBe(200);
    // The known address is still held to its own pair limit.
    for (let i = 0; i < 3; i += 1) expect((await login('10.1.1.1', owner.email, WRONG)).status).toBe(401);
    expect((await login('10.1.1.1', owner.email, PASSWORD)).status).toBe(429);
  });

  it('counts malformed Basic headers against the address', async () => {
    const user = await verifiedUser(t, uniqueEmail('malformed'));
    const malformed = ['Basic !!!not-base64', 'Basic', `Basic ${Buffer.from('no-colon').toString('base64')}`, basic('someone', '')];
    for (const header of malformed) {
      const res = await t.http.post('/auth').set('x-forwarded-for', '10.66.0.4').set('authorization', header);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'Unauthorized' });
    }
    // A NUL in the user is refused before it reaches the database, and counts too.
    const nul = await login('10.66.0.4', 'user\u0000@example.com', PASSWORD);
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({ code: 'InvalidInput', message: expect.stringContaining('authorization') });

    expect((await login('10.66.0.4', user.email, PASSWORD)).status).toBe(429);
    expect((await login('10.66.0.5', user.email, PASSWORD)).status).toBe(200);
  });

  it('stores a very long login under a fixed-size key and answers 401, not 500', async () => {
    expect((await login('10.66.0.6', `${'x'.repeat(1000)}@example.com`, WRONG)).status).toBe(401);
  });
});

describe('sign-up limit per client address', () => {
  let t: TestAccounts;
  const signUp = (from: string, email = uniqueEmail('signup')) =>
    t.http.post('/users').set('x-forwarded-for', from).send({ email, password: PASSWORD, displayName: 'Sign Up' });
  beforeAll(async () => {
    t = await startTestAccounts({ TRUST_PROXY: 'true', SIGNUP_MAX_PER_ADDRESS: '3', SIGNUP_WINDOW_SECONDS: '3600' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After and a JSON body after 3 sign-ups from one address, and stores no user', async () => {
    for (let i = 0; i < 3; i += 1) expect((await signUp('10.5.0.1')).status).toBe(201);
    const email = uniqueEmail('too-many');
    const refused = await signUp('10.5.0.1', email);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 'TooManyRequests', message: 'too many sign-ups from this address; try again later' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3590);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(await t.service.db('users').where({ email }).first()).toBeUndefined();
    expect((await signUp('10.5.0.2', email)).status).toBe(201);
  });

  it('lets exactly 3 of 10 parallel sign-ups from one address through', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => signUp('10.5.0.3')));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
  });
});
