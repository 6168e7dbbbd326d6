import { ConflictError, InvalidInputError, NotFoundError, ServerError, TooManyRequestsError, UnauthorizedError, UnreachableError } from '@cloud/sdk/browser';
import { asSentence, describeError } from '../web/src/errors';

// The console says what went wrong and what to do in a sentence, with the API's code beside it.

describe('describeError', () => {
  it("says a wrong login as a capitalised sentence that says what to do, keeping the API's code", () => {
    const shown = describeError(new UnauthorizedError(401, 'Unauthorized', 'wrong user id, e-mail or password', 'accounts', 'req-1'), 'login');
    expect(shown).toEqual({
      message: 'Wrong user id, e-mail or password. Check both and try again; if you forgot the password, reset it below.',
      code: 'Unauthorized',
      requestId: 'req-1',
    });
  });

  it('explains a broken verification link instead of the schema of the user id', () => {
    const broken = describeError(
      new InvalidInputError(400, 'InvalidInput', 'params.userId: must be a user id (user-<uuid>) or an e-mail address', 'accounts'),
      'verify',
    );
    expect(broken.message).toMatch(/^This verification link is broken: .* ask for a new e-mail below\.$/);
    expect(broken.message).not.toContain('params.');
    expect(broken.code).toBe('InvalidInput');
    expect(describeError(new NotFoundError(404, 'NotFound', 'the verification token is wrong, used or expired', 'accounts'), 'verify').message).toMatch(
      /does not work any more.*Ask for a new e-mail/,
    );
    expect(describeError(new ConflictError(409, 'UserVerified', 'the user is verified already', 'accounts'), 'verify').message).toBe(
      'This e-mail address is verified already: you can log in.',
    );
  });

  it('names a refused field in words, and says to correct it', () => {
    const shown = describeError(new InvalidInputError(400, 'InvalidInput', 'body.displayName: Too big: expected string to have <=100 characters', 'accounts'));
    expect(shown.message).toBe('Display name: Too big: expected string to have <=100 characters. Correct it and try again.');
    expect(asSentence('query.before: no such event of yours')).toBe('Before: no such event of yours.');
    expect(asSentence('body.billingAddress.country: too long')).toBe('Billing address country: too long.');
  });

  it('keeps the API words of other errors, capitalised, and says when to try again', () => {
    expect(describeError(new ConflictError(409, 'Conflict', 'the old password is wrong', 'accounts')).message).toBe('The old password is wrong.');
    expect(describeError(new TooManyRequestsError(429, 'TooManyRequests', 'too many login attempts', 'accounts', undefined, 30)).message).toBe(
      'Too many login attempts. Try again in 30 s.',
    );
    const failed = describeError(new ServerError(500, 'InternalError', 'internal error', 'nodes', 'req-9'));
    expect(failed).toMatchObject({ code: 'InternalError', requestId: 'req-9' });
    expect(failed.message).toMatch(/^The nodes service could not do this .* quote the request id below\.$/);
    expect(describeError(new UnreachableError('accounts', 'http://127.0.0.1:3001', new Error('refused'))).message).toMatch(
      /^Cannot reach the accounts service/,
    );
  });
});
