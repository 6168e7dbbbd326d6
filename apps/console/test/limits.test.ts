import { htmlPattern, inputLimits, LIMITS, listProblem } from '../web/src/limits';

// The console's forms take their limits from the APIs' schemas (the SDK's generated LIMITS); the
// API side of the same numbers is checked by the SDK's generated-types suite and the services'.

describe('form limits from the API schemas', () => {
  it("gives the display name the API's 100 characters, not more", () => {
    expect(inputLimits(LIMITS.accounts.SignUpRequest.displayName)).toEqual({ minLength: 1, maxLength: 100 });
    expect(inputLimits(LIMITS.accounts.UpdateProfileRequest.displayName)).toEqual({ minLength: 1, maxLength: 100 });
  });

  it("gives new passwords the API's length, the old one only its maximum", () => {
    expect(inputLimits(LIMITS.accounts.SignUpRequest.password)).toEqual({ minLength: 10, maxLength: 200 });
    expect(inputLimits(LIMITS.accounts.PasswordReset.password)).toEqual({ minLength: 10, maxLength: 200 });
    expect(inputLimits(LIMITS.accounts.ChangePasswordRequest.newPassword)).toEqual({ minLength: 10, maxLength: 200 });
  });

  it("turns a credential name's API pattern into one a browser compiles (v flag) and that means the same", () => {
    const limits = inputLimits(LIMITS.nodes.CreateCredentialRequest.name);
    expect(limits.maxLength).toBe(64);
    const api = new RegExp(LIMITS.nodes.CreateCredentialRequest.name.pattern);
    const browser = new RegExp(`^(?:${limits.pattern!})$`, 'v');
    for (const name of ['ci', 'my wallet-2', 'a.b_c', '-dash', ' space', 'x'.repeat(64), 'x'.repeat(65), 'naïve', '']) {
      expect([name, browser.test(name)]).toEqual([name, api.test(name)]);
    }
  });

  it('leaves out a pattern a browser would not compile rather than hand it over', () => {
    expect(htmlPattern('^[a-z')).toBeUndefined();
    expect(htmlPattern(undefined)).toBeUndefined();
    expect(htmlPattern('^[-a-z]+$')).toBe('[\\-a-z]+');
  });

  it('says which access list is too long or has a line the API refuses, and what to do', () => {
    const access = LIMITS.nodes.NodeAccessRequest;
    expect(inputLimits(access.ratePerSecond)).toEqual({ min: 1 });
    expect(inputLimits(access.maxAnswerBytes)).toEqual({ min: 4096 });
    expect(
      listProblem(
        'Addresses',
        Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`),
        access.ipAllowlist,
      ),
    ).toBe('Addresses: 101 lines, but at most 100 are taken. Remove 1.');
    expect(listProblem('Methods it refuses', ['getblock', 'eth call'], access.refusedMethods, 'a method name')).toBe(
      'Methods it refuses: "eth call" is not a method name. Correct or remove that line.',
    );
    expect(listProblem('Methods it refuses', ['getblock', 'eth_call'], access.refusedMethods)).toBeUndefined();
  });
});
