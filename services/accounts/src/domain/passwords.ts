import bcrypt from 'bcrypt';

export const PASSWORD_MIN_LENGTH = 10;
/** bcrypt reads at most 72 bytes; longer passwords would be silently cut, so they are refused. */
export const PASSWORD_MAX_BYTES = 72;

/** What is wrong with a proposed password, or undefined when it is acceptable. */
export function passwordWeakness(password: string, email: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (Buffer.byteLength(password) > PASSWORD_MAX_BYTES) return `must be at most ${PASSWORD_MAX_BYTES} bytes`;
  if (!/\p{L}/u.test(password) || !/[^\p{L}]/u.test(password)) return 'must mix letters with digits or symbols';
  if (new Set(password).size < 5) return 'must use at least 5 different characters';
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 4 && password.toLowerCase().includes(local)) return 'must not contain the e-mail address';
  return undefined;
}

export class PasswordHasher {
  // A real hash of nothing anyone knows, so a login for an unknown user costs the same time.
  private readonly dummyHash: Promise<string>;

  constructor(private readonly rounds: number) {
    this.dummyHash = bcrypt.hash('no such user, timing equaliser', rounds);
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.rounds);
  }

  /** Checks a password; with no hash (unknown user) it still spends the time of one check. */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    if (hash === undefined) {
      await bcrypt.compare(password, await this.dummyHash);
      return false;
    }
    return bcrypt.compare(password, hash);
  }
}
