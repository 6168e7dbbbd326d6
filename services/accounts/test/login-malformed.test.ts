import { PASSWORD, startTestAccounts, uniqueEmail, verifiedUser, type TestAccounts } from '../src/testing';

// Basic credentials that cannot name an account are refused before any lookup (400 for a user name
// no text column holds, 401 for a header that does not decode), and count as failed logins.
describe('POST /auth with malformed Basic credentials', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts({ LOGIN_MAX_FAILURES_PER_ADDRESS: '4', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100' });
  });
  afterAll(() => t.close());

  const withHeader = (authorization: string) => t.http.post('/auth').set('authorization', authorization);
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

  it('answers 400 InvalidInput naming the header for a NUL in the user name', async () => {
    const res = await withHeader(basic('ada\u0000@example.com:whatever 42'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'InvalidInput', message: 'authorization: the Basic user name must not contain a NUL character (\\u0000)' });
  });

  it('answers 401 JSON with the Basic challenge for a header that does not decode to user:password', async () => {
    const res = await withHeader(basic('no-colon-here'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'Unauthorized', message: 'HTTP Basic credentials are required' });
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('counts them towards the address limit: the next login from the address, even a right one, gets 429', async () => {
    const user = await verifiedUser(t, uniqueEmail('malformed'));
    // Two failures above, two more here: the address has used its 4.
    expect((await withHeader(basic('\u0000:x'))).status).toBe(400);
    expect((await withHeader('Basic')).status).toBe(401);
    const blocked = await t.http.post('/auth').auth(user.email, PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'TooManyRequests' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
