import { createHash, randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { UserRow } from '../src/data-access/users.repository';
import { HOUR, PASSWORD, startTestAccounts, uniqueEmail, type TestAccounts } from '../src/testing';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

interface EventRow {
  user_id: string;
  input: { method?: string; route?: string };
  output: { httpStatusCode: number };
}

describe('sign-up and e-mail verification', () => {
  let t: TestAccounts;
  beforeAll(async () => {
    t = await startTestAccounts();
  });
  afterAll(() => t.close());

  const signUp = (email: string, extra: Record<string, unknown> = {}) =>
    t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Ada', ...extra });
  const userRow = async (id: string) => (await t.service.db('users').where({ id }).first()) as UserRow | undefined;
  const userCount = async (email: string) => (await t.service.db('users').where({ email: email.toLowerCase() })).length;
  const nowIso = () => new Date(t.clock()).toISOString();

  describe('POST /users', () => {
    it('answers 201 with exactly the profile, and stores a bcrypt hash and only a sha256 of the token', async () => {
      const email = uniqueEmail('Mixed.Case').replace('example.com', 'Example.COM');
      const res = await signUp(email);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^user-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        email: email.toLowerCase(),
        displayName: 'Ada',
        entityType: 'individual',
        verifiedAt: null,
        createdAt: nowIso(),
        updatedAt: nowIso(),
        billingAddress: { country: '', zipCode: '', address: '', state: '' },
        twoFactor: false,
      });
      expect(res.body.createdAt).toMatch(ISO_MS);
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);

      const row = await userRow(res.body.id as string);
      expect(row).toMatchObject({ email: email.toLowerCase(), display_name: 'Ada', entity_type: 'individual', verified_at: null });
      expect(row!.password_hash).toMatch(/^\$2[aby]\$/);
      expect(row!.password_hash).not.toContain(PASSWORD);
      await expect(bcrypt.compare(PASSWORD, row!.password_hash)).resolves.toBe(true);

      const token = await t.verificationTokenFor(email);
      expect(row!.verification_token_hash).toBe(sha256(token));
      expect(JSON.stringify(row)).not.toContain(token);
      expect(new Date(row!.verification_expires_at!).getTime()).toBe(t.clock() + 48 * HOUR);
    });

    it('keeps the billing address fields given and fills the others with empty strings', async () => {
      const res = await signUp(uniqueEmail(), { billingAddress: { country: 'NL', zipCode: '1011 AB' } });
      expect(res.status).toBe(201);
      const billingAddress = { country: 'NL', zipCode: '1011 AB', address: '', state: '' };
      expect(res.body.billingAddress).toEqual(billingAddress);
      expect((await userRow(res.body.id as string))!.billing_address).toEqual(billingAddress);
    });

    it('refuses a second user with the same e-mail address, in any letter case, with 409 Conflict', async () => {
      const email = uniqueEmail('dup');
      expect((await signUp(email)).status).toBe(201);
      for (const again of [email, email.toUpperCase()]) {
        const res = await signUp(again);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ code: 'Conflict', message: 'a user with this e-mail address exists' });
      }
      expect(await userCount(email)).toBe(1);
    });

    it.each([
      ['too short', () => 'Ab1!xyz', 'must be at least 10 characters'],
      ['of letters only', () => 'onlyLettersHere', 'must mix letters with digits or symbols'],
      ['containing the e-mail local part', (email: string) => `X9-${email.split('@')[0]}-Q`, 'must not contain the e-mail address'],
      ['over 72 bytes (though under 72 characters)', () => `${'ä'.repeat(32)}123456789`, 'must be at most 72 bytes'],
    ])('refuses a password %s with 400 InvalidInput naming body.password', async (_case, password, problem) => {
      const email = uniqueEmail('weak');
      const res = await signUp(email, { password: password(email) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message: `body.password: ${problem}` });
      expect(await userCount(email)).toBe(0);
    });

    it.each([
      ['a bad e-mail address', { email: 'not-an-address', password: PASSWORD, displayName: 'Ada' }, /^body\.email: must be an e-mail address$/],
      ['no displayName', { email: 'no.name@example.com', password: PASSWORD }, /^body\.displayName: /],
      ['an unknown extra field', { email: 'extra@example.com', password: PASSWORD, displayName: 'Ada', isAdmin: true }, /^body: .*"isAdmin"/],
      ['an array body', [{ email: 'array@example.com', password: PASSWORD, displayName: 'Ada' }], /^body: .*array/],
    ])('refuses %s with 400 InvalidInput', async (_case, body, message) => {
      const res = await t.http.post('/users').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message: expect.stringMatching(message) });
      expect(await t.service.db('users').whereIn('email', ['not-an-address', 'no.name@example.com', 'extra@example.com', 'array@example.com'])).toEqual([]);
    });

    it('refuses a body that is not JSON with 400 InvalidInput', async () => {
      const res = await t.http.post('/users').set('content-type', 'application/json').send('{"email": "broken@example.com",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'InvalidInput', message: 'the request body is not valid JSON' });
      expect(await userCount('broken@example.com')).toBe(0);
    });
  });

  describe('PUT /users/{userId}/token/{token}', () => {
    it('verifies the user: 200 with the profile, verifiedAt set, and the token cleared in the database', async () => {
      const email = uniqueEmail('verify');
      const id = (await signUp(email)).body.id as string;
      const res = await t.http.put(`/users/${id}/token/${await t.verificationTokenFor(email)}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, email, displayName: 'Ada', entityType: 'individual', verifiedAt: nowIso(), updatedAt: nowIso() });
      expect(res.body.verifiedAt).toMatch(ISO_MS);
      const row = await userRow(id);
      expect(new Date(row!.verified_at!).toISOString()).toBe(nowIso());
      expect(row).toMatchObject({ verification_token_hash: null, verification_expires_at: null });
    });

    it('accepts the e-mail address (any case) as userId, and a second use answers 409 UserVerified', async () => {
      const email = uniqueEmail('by-email');
      const id = (await signUp(email)).body.id as string;
      const token = await t.verificationTokenFor(email);
      const res = await t.http.put(`/users/${encodeURIComponent(email.toUpperCase())}/token/${token}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, verifiedAt: nowIso() });

      const again = await t.http.put(`/users/${id}/token/${token}`);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: 'UserVerified', message: 'the user is verified already' });
    });

    it('answers 404 NotFound to a wrong token and leaves the user unverified', async () => {
      const email = uniqueEmail('wrong');
      const id = (await signUp(email)).body.id as string;
      const res = await t.http.put(`/users/${id}/token/not-the-token`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NotFound', message: 'the verification token is wrong, used or expired' });
      expect((await userRow(id))!.verified_at).toBeNull();
    });

    it.each(['user-00000000-0000-4000-8000-000000000000', 'nobody@example.com'])('answers 404 NotFound for an unknown user %s', async (userId) => {
      const res = await t.http.put(`/users/${userId}/token/some-token`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NotFound', message: 'no such user' });
    });

    it.each(['neither-id-nor-address', 'user-42', 'a%00@example.com'])(
      'answers 400 InvalidInput for a user reference %s that is neither an id nor an address',
      async (userId) => {
        const res = await t.http.put(`/users/${userId}/token/some-token`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'InvalidInput', message: expect.stringMatching(/^params\.userId: /) });
      },
    );

    it('accepts a token until VERIFICATION_TOKEN_TTL_HOURS (48) have passed, then answers 404', async () => {
      const [early, late] = [uniqueEmail('early'), uniqueEmail('late')];
      const earlyId = (await signUp(early)).body.id as string;
      const lateId = (await signUp(late)).body.id as string;
      const [earlyToken, lateToken] = [await t.verificationTokenFor(early), await t.verificationTokenFor(late)];

      t.clock.advance(48 * HOUR - 1);
      expect((await t.http.put(`/users/${earlyId}/token/${earlyToken}`)).status).toBe(200);

      t.clock.advance(1);
      const expired = await t.http.put(`/users/${lateId}/token/${lateToken}`);
      expect(expired.status).toBe(404);
      expect(expired.body).toEqual({ code: 'NotFound', message: 'the verification token is wrong, used or expired' });
      expect((await userRow(lateId))!.verified_at).toBeNull();
    });
  });

  describe('POST /auth before verification', () => {
    it('answers 403 UserNotVerified to the right password and 401 to a wrong one', async () => {
      const email = uniqueEmail('unverified');
      await signUp(email).expect(201);
      const right = await t.http.post('/auth').auth(email, PASSWORD);
      expect(right.status).toBe(403);
      expect(right.body).toEqual({ code: 'UserNotVerified', message: 'verify your e-mail address before logging in' });
      const wrong = await t.http.post('/auth').auth(email, `${PASSWORD}x`);
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 'Unauthorized' });
    });
  });

  describe('POST /users/{userId}/verification (resend)', () => {
    it('answers 429 with Retry-After within VERIFICATION_RESEND_INTERVAL_SECONDS (60), then 202 with a new token that replaces the old one', async () => {
      const email = uniqueEmail('resend');
      const id = (await signUp(email)).body.id as string;
      const oldToken = await t.verificationTokenFor(email);

      const tooSoon = await t.http.post(`/users/${id}/verification`);
      expect(tooSoon.status).toBe(429);
      expect(tooSoon.headers['retry-after']).toBe('60');
      expect(tooSoon.body).toEqual({ code: 'TooManyRequests', message: 'a verification e-mail was sent moments ago' });
      t.clock.advance(59_000);
      const stillTooSoon = await t.http.post(`/users/${id}/verification`);
      expect(stillTooSoon.status).toBe(429);
      expect(stillTooSoon.headers['retry-after']).toBe('1');
      expect(await t.verificationTokensFor(email)).toEqual([oldToken]);

      t.clock.advance(1_000);
      const resent = await t.http.post(`/users/${id}/verification`);
      expect(resent.status).toBe(202);
      expect(resent.body).toEqual({ message: 'a new verification e-mail is on its way' });
      const tokens = await t.verificationTokensFor(email);
      expect(tokens).toHaveLength(2);
      const newToken = tokens.find((token) => token !== oldToken)!;
      expect(newToken).toEqual(expect.any(String));
      expect((await userRow(id))!.verification_token_hash).toBe(sha256(newToken));

      expect((await t.http.put(`/users/${id}/token/${oldToken}`)).status).toBe(404);
      expect((await userRow(id))!.verified_at).toBeNull();
      expect((await t.http.put(`/users/${id}/token/${newToken}`)).status).toBe(200);
    });

    it('answers 409 UserVerified for a verified user (named by e-mail too) and 404 for an unknown one', async () => {
      const email = uniqueEmail('resend-verified');
      const id = (await signUp(email)).body.id as string;
      await t.http.put(`/users/${id}/token/${await t.verificationTokenFor(email)}`).expect(200);
      for (const userId of [id, email]) {
        const res = await t.http.post(`/users/${userId}/verification`);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ code: 'UserVerified', message: 'the user is verified already' });
      }
      const unknown = await t.http.post(`/users/user-${randomUUID()}/verification`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 'NotFound', message: 'no such user' });
    });
  });

  describe('call events', () => {
    it('records every call tied to the user, and never the verification token', async () => {
      const email = uniqueEmail('events');
      const id = (await signUp(email)).body.id as string;
      const oldToken = await t.verificationTokenFor(email);
      await t.http.post('/auth').auth(email, 'wrong password 1').expect(401);
      await t.http.post('/auth').auth(id, PASSWORD).expect(403);
      await t.http.post(`/users/${id}/verification`).expect(429);
      t.clock.advance(60_000);
      await t.http.post(`/users/${email}/verification`).expect(202);
      const newToken = (await t.verificationTokensFor(email)).find((token) => token !== oldToken)!;
      await t.http.put(`/users/${id}/token/${oldToken}`).expect(404);
      await t.http.put(`/users/${email}/token/${newToken}`).expect(200);
      await t.http.put(`/users/${id}/token/${newToken}`).expect(409);
      await t.http.post(`/users/${id}/verification`).expect(409);

      await t.settle();
      const rows = (await t.service.db('events').where({ user_id: id })) as EventRow[];
      const calls = rows.map((row) => `${row.input.method} ${row.input.route} ${row.output.httpStatusCode}`);
      // Events are written after each response, concurrently, so the insertion order (seq) can
      // differ from the call order on PostgreSQL: compare them as a sorted list.
      expect(calls.sort()).toEqual(
        [
          'POST /users 201',
          'POST /auth 401',
          'POST /auth 403',
          'POST /users/:userId/verification 429',
          'POST /users/:userId/verification 202',
          'PUT /users/:userId/token/:token 404',
          'PUT /users/:userId/token/:token 200',
          'PUT /users/:userId/token/:token 409',
          'POST /users/:userId/verification 409',
        ].sort(),
      );
      const everyEvent = JSON.stringify(await t.service.db('events'));
      expect(everyEvent).toContain(id);
      expect(everyEvent).not.toContain(oldToken);
      expect(everyEvent).not.toContain(newToken);
    });
  });
});
