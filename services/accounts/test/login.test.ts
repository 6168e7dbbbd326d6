import jwt, { type JwtPayload } from 'jsonwebtoken';
import { LoginThrottle } from '../src/domain/login-throttle';
import { bearer, HOUR, PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

const WRONG = 'wrong horse battery 99';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

function expectBasicChallenge(res: { status: number; body: unknown; headers: Record<string, string> }) {
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ code: 'Unauthorized' });
  expect(res.headers['www-authenticate']).toMatch(/^Basic /);
}

describe('POST /auth (HTTP Basic login)', () => {
  let t: TestAccounts;
  let user: { id: string; email: string; accountToken: string };
  beforeAll(async () => {
    t = await startTestAccounts();
    user = await verifiedUser(t, uniqueEmail('login'));
  });
  afterAll(() => t.close());

  it.each([
    ['the user id', () => user.id],
    ['the e-mail address', () => user.email],
    ['the e-mail address in upper case', () => user.email.toUpperCase()],
    ['the e-mail address in mixed case', () => user.email.replace(/^./, (c) => c.toUpperCase())],
  ])('logs in by %s and returns a 12-hour account token', async (_name, login) => {
    const res = await t.http.post('/auth').auth(login(), PASSWORD);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object)).toEqual(['accessToken']);
    const token = res.body.accessToken as string;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const payload = jwt.decode(token) as JwtPayload;
    expect(payload).toMatchObject({ kind: 'account', sub: user.id });
    expect(payload.exp! - payload.iat!).toBe(43_200);

    const me = await t.http.get('/users/me').set(bearer(token));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: user.email });
  });

  it.each([
    ['a wrong password', () => t.http.post('/auth').auth(user.email, WRONG)],
    ['an unknown e-mail address', () => t.http.post('/auth').auth(uniqueEmail('nobody'), PASSWORD)],
    ['an unknown user id', () => t.http.post('/auth').auth('user-00000000-0000-4000-8000-000000000000', PASSWORD)],
    ['a login that is neither id nor e-mail', () => t.http.post('/auth').auth('bob', PASSWORD)],
    ['no Authorization header', () => t.http.post('/auth')],
    ['a Bearer header instead of Basic', () => t.http.post('/auth').set(bearer(user.accountToken))],
    ['a Basic header that is not base64 user:password', () => t.http.post('/auth').set('authorization', 'Basic !!!not-base64')],
    ['a Basic header without a colon', () => t.http.post('/auth').set('authorization', `Basic ${Buffer.from('no-colon').toString('base64')}`)],
    ['a Basic header with no credentials', () => t.http.post('/auth').set('authorization', 'Basic')],
  ])('refuses %s with 401 and a Basic challenge', async (_name, send) => {
    const res = await send();
    expectBasicChallenge(res);
    expect(res.body.accessToken).toBeUndefined();
  });

  it('refuses an unverified user with 403 UserNotVerified, but only with the right password', async () => {
    const email = uniqueEmail('unverified');
    await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Unverified' }).expect(201);
    expectBasicChallenge(await t.http.post('/auth').auth(email, WRONG));
    const res = await t.http.post('/auth').auth(email, PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'UserNotVerified' });
  });

  it('records a failed login of a known user as a 401 event of that user, without the password', async () => {
    const secret = 'Sup3r-Secret-Guess-xyzzy';
    expectBasicChallenge(await t.http.post('/auth').set('authorization', basic(user.email, secret)));
    await t.settle();

    const events = await t.http.get('/users/me/events').set(bearer(user.accountToken));
    expect(events.status).toBe(200);
    const [latest] = events.body as Array<{ user: string; input: { method: string; route: string }; output: { httpStatusCode: number } }>;
    expect(latest).toMatchObject({ user: user.id, input: { method: 'POST', route: '/auth' }, output: { httpStatusCode: 401 } });

    const rows = (await t.service.db('events').select('*')) as Array<{ user_id: string; output: unknown }>;
    expect(rows.some((row) => row.user_id === user.id && JSON.stringify(row.output).includes('"httpStatusCode":401'))).toBe(true);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(Buffer.from(`${user.email}:${secret}`).toString('base64'));
  });

  it('accepts an account token until 12 hours have passed, then refuses it as expired', async () => {
    const login = await t.http.post('/auth').auth(user.id, PASSWORD).expect(200);
    const token = login.body.accessToken as string;

    t.clock.advance(12 * HOUR - 1000);
    expect((await t.http.get('/users/me').set(bearer(token))).status).toBe(200);

    t.clock.advance(1001);
    const expired = await t.http.get('/users/me').set(bearer(token));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ code: 'Unauthorized', message: 'token expired' });
    expect(expired.headers['www-authenticate']).toMatch(/^Bearer /);

    // A new login gives a fresh token at the new time.
    const fresh = await t.http.post('/auth').auth(user.id, PASSWORD).expect(200);
    expect((await t.http.get('/users/me').set(bearer(fresh.body.accessToken as string))).status).toBe(200);
  });
});

describe('login throttling per account and address', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: '3', LOGIN_BLOCK_SECONDS: '600' });
  });
  afterAll(() => t.close());

  it('blocks an account at an address after 3 wrong passwords from it, even the right one, while others still log in', async () => {
    const victim = await verifiedUser(t, uniqueEmail('victim'));
    const bystander = await verifiedUser(t, uniqueEmail('bystander'));
    // id, e-mail and upper-case e-mail all name the same account, so they count together.
    for (const login of [victim.id, victim.email, victim.email.toUpperCase()]) {
      expectBasicChallenge(await t.http.post('/auth').auth(login, WRONG));
    }

    const blocked = await t.http.post('/auth').auth(victim.email, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'TooManyRequests' });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect((await t.http.post('/auth').auth(victim.id, PASSWORD)).status).toBe(429);

    const other = await t.http.post('/auth').auth(bystander.email, PASSWORD);
    expect(other.status).toBe(200);
    expect(jwt.decode(other.body.accessToken as string)).toMatchObject({ sub: bystander.id });
  });

  it('starts counting again after a successful login', async () => {
    const user = await verifiedUser(t, uniqueEmail('forgetful'));
    for (let i = 0; i < 2; i += 1) expectBasicChallenge(await t.http.post('/auth').auth(user.email, WRONG));
    expect((await t.http.post('/auth').auth(user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expectBasicChallenge(await t.http.post('/auth').auth(user.email, WRONG));
    expect((await t.http.post('/auth').auth(user.email, PASSWORD)).status).toBe(200);
  });

  it('checks no more than 3 passwords when 10 guesses arrive at once', async () => {
    const target = await verifiedUser(t, uniqueEmail('parallel'));
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => t.http.post('/auth').auth(target.email, `${WRONG}-${i}`)));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
  });
});

describe('login throttling per client address', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ LOGIN_MAX_FAILURES_PER_ADDRESS: '4', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100' });
  });
  afterAll(() => t.close());

  it('blocks every login from an address after 4 failures spread over several unknown e-mails', async () => {
    const user = await verifiedUser(t, uniqueEmail('neighbour'));
    for (let i = 0; i < 4; i += 1) expectBasicChallenge(await t.http.post('/auth').auth(uniqueEmail('spray'), WRONG));

    const stranger = await t.http.post('/auth').auth(uniqueEmail('spray'), WRONG);
    expect(stranger.status).toBe(429);
    const known = await t.http.post('/auth').auth(user.email, PASSWORD);
    expect(known.status).toBe(429);
    expect(known.body).toMatchObject({ code: 'TooManyRequests' });
    expect(Number(known.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('LoginThrottle (fake timers)', () => {
  const START = new Date('2030-01-01T00:00:00.000Z');
  beforeEach(() => {
    jest.useFakeTimers();
    jest.setSystemTime(START);
  });
  afterEach(() => jest.useRealTimers());

  const options = { maxFailuresPerAccountAndAddress: 3, maxFailuresPerAddress: 100, maxFailuresPerAccount: 100, knownAddressSeconds: 86_400 };
  const throttle = (windowSeconds: number, blockSeconds: number) => new LoginThrottle({ ...options, windowSeconds, blockSeconds });
  // Attempts whose password turned out wrong: counted, never followed by succeeded().
  const fail = async (th: LoginThrottle, times: number, address: string | undefined) => {
    for (let i = 0; i < times; i += 1) await th.attempt('User-A', address);
  };

  it('refuses the (account, address) pair past the limit for blockSeconds, then allows again; other pairs go on', async () => {
    const th = throttle(900, 600);
    await fail(th, 3, '10.0.0.1');
    await expect(th.attempt('user-a', '10.0.0.1')).rejects.toMatchObject({ status: 429, headers: { 'Retry-After': '600' } });
    await expect(th.attempt('user-a', '10.0.0.2')).resolves.toBeUndefined();
    await expect(th.attempt('user-b', '10.0.0.1')).resolves.toBeUndefined();

    jest.advanceTimersByTime(599_000);
    await expect(th.attempt('user-a', '10.0.0.1')).rejects.toMatchObject({ status: 429, headers: { 'Retry-After': '1' } });
    jest.advanceTimersByTime(2_000);
    await expect(th.attempt('user-a', '10.0.0.1')).resolves.toBeUndefined();
  });

  it('keeps the block for blockSeconds even when the failure window is shorter', async () => {
    const th = throttle(60, 600);
    await fail(th, 3, undefined);
    await expect(th.attempt('user-a', undefined)).rejects.toMatchObject({ status: 429 });
    jest.advanceTimersByTime(61_000);
    await expect(th.attempt('user-a', undefined)).rejects.toMatchObject({ status: 429 });
    jest.advanceTimersByTime(540_000);
    await expect(th.attempt('user-a', undefined)).resolves.toBeUndefined();
  });

  it('forgets attempts older than the window, and a success clears the pair', async () => {
    const th = throttle(900, 600);
    await fail(th, 2, '10.0.0.1');
    jest.advanceTimersByTime(901_000);
    await fail(th, 2, '10.0.0.1');
    await expect(th.attempt('user-a', '10.0.0.1')).resolves.toBeUndefined(); // the third in the window
    await th.succeeded('USER-A', '10.0.0.1');
    await fail(th, 3, '10.0.0.1');
    await expect(th.attempt('user-a', '10.0.0.1')).rejects.toMatchObject({ status: 429 });
  });

  it('lets no more than the limit through when attempts arrive all at once', async () => {
    const th = throttle(900, 600);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => th.attempt('user-a', '10.0.0.1')));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
  });

  it('blocks an address past its own limit, whatever account is named, and gives back successful attempts', async () => {
    const th = new LoginThrottle({ ...options, maxFailuresPerAddress: 2, windowSeconds: 900, blockSeconds: 300 });
    await th.attempt('a@example.com', '10.0.0.9');
    await th.succeeded('a@example.com', '10.0.0.9');
    await th.attempt('b@example.com', '10.0.0.9');
    await th.countFailure(undefined, '10.0.0.9'); // a malformed login
    await expect(th.attempt('d@example.com', '10.0.0.9')).rejects.toMatchObject({ status: 429 });
    await expect(th.attempt('d@example.com', '10.0.0.10')).resolves.toBeUndefined();
    jest.advanceTimersByTime(301_000);
    await expect(th.attempt('d@example.com', '10.0.0.9')).resolves.toBeUndefined();
  });

  it('past the account ceiling refuses addresses without a recent success, until knownAddressSeconds after it', async () => {
    const th = new LoginThrottle({ ...options, maxFailuresPerAccount: 2, windowSeconds: 900, blockSeconds: 300 });
    await th.attempt('user-a', '10.0.0.1');
    await th.succeeded('user-a', '10.0.0.1');
    await th.countFailure('user-a', '10.0.1.1'); // a wrong second factor counts like a wrong password
    await th.attempt('user-a', '10.0.1.2');
    await expect(th.attempt('user-a', '10.0.1.3')).rejects.toMatchObject({ status: 429 });
    await expect(th.attempt('user-a', '10.0.0.1')).resolves.toBeUndefined();
    await expect(th.attempt('user-b', '10.0.1.3')).resolves.toBeUndefined();

    jest.advanceTimersByTime(86_401_000); // the block is over, and so is the address's standing
    await th.attempt('user-a', '10.0.1.4');
    await th.attempt('user-a', '10.0.1.5');
    await expect(th.attempt('user-a', '10.0.0.1')).rejects.toMatchObject({ status: 429 });
  });
});
