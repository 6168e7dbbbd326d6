import { fromBase64Url } from './encoding';
import { NotLoggedInError, UnauthorizedError } from './errors';
import type { ApiClient } from './http';
import type { ClientKey, ClientTokens, UserProfile } from './types';

/**
 * What a logged-in client keeps between runs (the CLI writes it to its 0600 config file). It
 * holds no password and no client secret: the account token (12 hours) for account calls, and
 * the refresh token (1 year) of a client key made for this session, from which client access
 * tokens (1 hour) are minted when needed. Deleting that key (logout) revokes all of them.
 */
export interface Session {
  userId: string;
  email: string;
  accountToken?: string;
  /** The client key this session mints client tokens with. */
  clientId?: string;
  refreshToken?: string;
  clientAccessToken?: string;
}

export interface LoginOptions {
  /**
   * The second factor, for an account with two-factor login on: the authenticator app's code, or
   * a recovery code. Without it such a login throws TwoFactorRequiredError.
   */
  code?: string;
}

/** Tokens this close to their expiry are renewed before use rather than sent and refused. */
const EXPIRY_MARGIN_SECONDS = 30;

/**
 * The claims of a JWT-shaped token, read without verifying it: only to know when it expires and
 * whose it is, never to trust it. Empty when the token is not JWT-shaped.
 */
function tokenClaims(token: string): { exp?: unknown; sub?: unknown } {
  try {
    return JSON.parse(fromBase64Url(token.split('.')[1] ?? '')) as { exp?: unknown; sub?: unknown };
  } catch {
    return {};
  }
}

/** The `exp` claim of a token, in seconds since the epoch; undefined when it can't be read. */
export function tokenExpiry(token: string): number | undefined {
  const { exp } = tokenClaims(token);
  return typeof exp === 'number' ? exp : undefined;
}

function isFresh(token: string | undefined, now: number): token is string {
  if (!token) return false;
  const expiry = tokenExpiry(token);
  return expiry === undefined || expiry - EXPIRY_MARGIN_SECONDS > now / 1000;
}

/**
 * The token dance: logs in, keeps the account token, mints the client token and refreshes it
 * when it expires. `onChange` hears every change of the session, to persist it.
 */
export class SessionManager {
  constructor(
    private readonly accounts: ApiClient,
    private session: Session | undefined,
    private readonly onChange: (session: Session | undefined) => void,
    private readonly now: () => number = Date.now,
  ) {}

  current(): Session | undefined {
    return this.session;
  }

  /**
   * Logs in with the password for an account token, then makes a client key for this session
   * and trades it for client tokens. A session of the same user keeps its client key; another
   * user's session is logged out first.
   */
  async login(user: string, password: string, options: LoginOptions = {}): Promise<UserProfile> {
    const { accessToken } = await this.accounts.request<{ accessToken: string }>({
      method: 'POST',
      path: '/auth',
      auth: { basic: { user, password } },
      ...(options.code === undefined ? {} : { body: { code: options.code } }),
    });
    const profile = await this.accounts.request<UserProfile>({ method: 'GET', path: '/users/me', auth: { bearer: accessToken } });
    const previous = this.session;
    if (previous && previous.userId !== profile.id) await this.logout();
    const kept = previous?.userId === profile.id ? previous : undefined;
    this.set({ ...kept, userId: profile.id, email: profile.email, accountToken: accessToken });
    if (!kept?.refreshToken || !(await this.refreshes())) await this.mintClientTokens();
    return profile;
  }

  /** Uses an existing client key pair (scripts that hold one) for client tokens, without a login. */
  async useClientKey(clientId: string, clientSecret: string): Promise<void> {
    const tokens = await this.exchange({ grantType: 'clientCredentials', clientId, clientSecret });
    const { sub } = tokenClaims(tokens.accessToken);
    this.set({ userId: typeof sub === 'string' ? sub : '', email: '', clientId, refreshToken: tokens.refreshToken, clientAccessToken: tokens.accessToken });
  }

  /** A valid account token, or NotLoggedInError. */
  accountToken(): string {
    const token = this.session?.accountToken;
    if (!this.session) throw new NotLoggedInError('not logged in');
    if (!isFresh(token, this.now())) throw new NotLoggedInError('the login has expired (account tokens last 12 hours)');
    return token;
  }

  /**
   * Goes on after a change that ended every token and client key of the account (a password
   * change, turning two-factor login on): takes the fresh account token the change answered, and
   * a session that minted client tokens makes itself a new client key (its old one is deleted).
   */
  async continueWith(accountToken: string): Promise<void> {
    if (!this.session) return;
    this.set({ ...this.session, accountToken });
    if (this.session.clientId) await this.mintClientTokens();
  }

  /** A valid client access token, refreshed when expired (or when `force`d after a 401). */
  async clientAccessToken(force = false): Promise<string> {
    if (!this.session) throw new NotLoggedInError('not logged in');
    if (!force && isFresh(this.session.clientAccessToken, this.now())) return this.session.clientAccessToken;
    if (await this.refreshes()) return this.session.clientAccessToken!;
    // The refresh token is gone (revoked by a password change or a deleted key, or expired):
    // make a new client key while the account token lasts.
    if (isFresh(this.session.accountToken, this.now())) {
      await this.mintClientTokens();
      return this.session.clientAccessToken!;
    }
    throw new NotLoggedInError('the client session has expired or was revoked');
  }

  /**
   * A new client key for the session, replacing (and deleting) the one before. Needed after a
   * password change, which deletes every client key and revokes every token issued before it.
   */
  async mintClientTokens(): Promise<void> {
    const accountToken = this.accountToken();
    const key = await this.accounts.request<ClientKey>({ method: 'POST', path: '/users/me/client-keys', auth: { bearer: accountToken } });
    const tokens = await this.exchange({ grantType: 'clientCredentials', clientId: key.clientId, clientSecret: key.clientSecret });
    const replaced = this.session?.clientId;
    this.set({ ...this.session!, clientId: key.clientId, refreshToken: tokens.refreshToken, clientAccessToken: tokens.accessToken });
    if (replaced && replaced !== key.clientId) await this.deleteKeyQuietly(replaced, accountToken);
  }

  /**
   * Forgets the session. When the account token still works, the session's client key is deleted
   * too, which revokes every client token minted from it; answers whether that happened.
   */
  async logout(): Promise<{ revoked: boolean }> {
    const session = this.session;
    let revoked = false;
    if (session?.clientId && isFresh(session.accountToken, this.now())) revoked = await this.deleteKeyQuietly(session.clientId, session.accountToken);
    this.set(undefined);
    return { revoked };
  }

  /** Tries the refresh token; false when it no longer works. */
  private async refreshes(): Promise<boolean> {
    const refreshToken = this.session?.refreshToken;
    if (!refreshToken) return false;
    try {
      const tokens = await this.exchange({ grantType: 'refreshToken', refreshToken });
      this.set({ ...this.session!, refreshToken: tokens.refreshToken, clientAccessToken: tokens.accessToken });
      return true;
    } catch (error) {
      if (error instanceof UnauthorizedError) return false;
      throw error;
    }
  }

  private exchange(body: Record<string, string>): Promise<ClientTokens> {
    return this.accounts.request<ClientTokens>({ method: 'POST', path: '/auth/token', body });
  }

  private async deleteKeyQuietly(clientId: string, accountToken: string): Promise<boolean> {
    try {
      await this.accounts.request({ method: 'DELETE', path: `/users/me/client-keys/${encodeURIComponent(clientId)}`, auth: { bearer: accountToken } });
      return true;
    } catch (error) {
      // Already gone, or the token no longer works: either way there is nothing left to revoke here.
      if (error instanceof UnauthorizedError || (error as { status?: number }).status === 404) return false;
      throw error;
    }
  }

  private set(session: Session | undefined): void {
    this.session = session;
    this.onChange(session);
  }
}
