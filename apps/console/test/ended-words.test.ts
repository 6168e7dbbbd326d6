import { endedWords } from '../web/src/ended-words';

// What the profile page (password change) and the reset page say ended (issue 29, item 3).

describe('ended-credentials words', () => {
  const ended = (clientKeyIds: string[]) => ({ clientKeys: clientKeyIds.length, clientKeyIds, tokensIssuedBefore: '2026-11-27T20:00:00.000Z' });

  it('counts the deleted client keys', () => {
    expect(endedWords(ended(['a', 'b']))).toBe(
      'Every other session and token of the account has ended, and its 2 client keys were deleted (programs that used one need a new key).',
    );
    expect(endedWords(ended(['a']))).toBe(
      'Every other session and token of the account has ended, and its client key was deleted (programs that used one need a new key).',
    );
  });

  it('says when there were none', () => {
    expect(endedWords(ended([]))).toBe('Every other session and token of the account has ended, and the account had no client keys.');
  });
});
