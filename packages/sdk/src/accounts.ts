import type { ApiClient } from './http';
import type { SessionManager } from './session';
import type {
  ClientKey,
  ClientKeySummary,
  CloudEvent,
  CredentialsEnded,
  EventsQuery,
  PasswordReset,
  PasswordResetRequest,
  SignUpRequest,
  TwoFactorConfirmation,
  TwoFactorEnrolment,
  TwoFactorStatus,
  UpdateProfileRequest,
  UserProfile,
} from './types';

/** The accounts API: sign-up and verification without a session, the rest with the account token. */
export class AccountsApi {
  constructor(
    private readonly api: ApiClient,
    private readonly session: SessionManager,
  ) {}

  /** Creates the user and sends the verification e-mail. */
  signUp(request: SignUpRequest): Promise<UserProfile> {
    return this.api.request({ method: 'POST', path: '/users', body: request });
  }

  /** Verifies the e-mail address with the user id and token of the verification e-mail. */
  verify(userId: string, token: string): Promise<UserProfile> {
    return this.api.request({ method: 'PUT', path: `/users/${encodeURIComponent(userId)}/token/${encodeURIComponent(token)}` });
  }

  /** Sends a new verification e-mail to the user (id or e-mail address). */
  resendVerification(user: string): Promise<{ message: string }> {
    return this.api.request({ method: 'POST', path: `/users/${encodeURIComponent(user)}/verification` });
  }

  /**
   * Asks for a password-reset e-mail. The answer is the same whether or not the address has an
   * account; the e-mail's link (or its user id and token) goes to `resetPassword`.
   */
  requestPasswordReset(email: string): Promise<{ message: string }> {
    const body: PasswordResetRequest = { email };
    return this.api.request({ method: 'POST', path: '/users/password-reset', body });
  }

  /**
   * Sets a new password with the user id and token of a password-reset e-mail. Every token issued
   * before stops working and every client key of the account is deleted (the answer says which),
   * so log in again afterwards.
   */
  resetPassword(userId: string, token: string, password: string): Promise<CredentialsEnded> {
    const body: PasswordReset = { password };
    return this.api.request({ method: 'PUT', path: `/users/${encodeURIComponent(userId)}/password-reset/${encodeURIComponent(token)}`, body });
  }

  async profile(): Promise<UserProfile> {
    return this.api.request({ method: 'GET', path: '/users/me', auth: this.asAccount() });
  }

  async updateProfile(change: UpdateProfileRequest): Promise<UserProfile> {
    return this.api.request({ method: 'PATCH', path: '/users/me', body: change, auth: this.asAccount() });
  }

  /**
   * Changes the password. Every token issued before stops working and every client key of the
   * account is deleted (the answer says which), so the session goes on with the fresh account
   * token of the answer and a new client key of its own.
   */
  async changePassword(oldPassword: string, newPassword: string): Promise<CredentialsEnded> {
    const { accessToken, ...ended } = await this.api.request<CredentialsEnded & { accessToken: string }>({
      method: 'PUT',
      path: '/users/me/password',
      body: { oldPassword, newPassword },
      auth: this.asAccount(),
    });
    await this.session.continueWith(accessToken);
    return ended;
  }

  /** Deletes the account with its keys and events, confirmed with the password; the session ends. */
  async deleteAccount(password: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: '/users/me', body: { password }, auth: this.asAccount() });
    await this.session.logout();
  }

  /** Whether two-factor login is on (or enrolled, waiting for its first code), and how many recovery codes are left. */
  async twoFactorStatus(): Promise<TwoFactorStatus> {
    return this.api.request({ method: 'GET', path: '/users/me/two-factor', auth: this.asAccount() });
  }

  /**
   * Starts two-factor login (confirmed with the password): a new TOTP secret and its
   * `otpauth://` URI for an authenticator app. It is pending until `confirmTwoFactor`.
   */
  async enrolTwoFactor(password: string): Promise<TwoFactorEnrolment> {
    return this.api.request({ method: 'POST', path: '/users/me/two-factor', body: { password }, auth: this.asAccount() });
  }

  /**
   * Turns two-factor login on with a first code of the enrolled secret; returns the recovery
   * codes, shown this once. Like a password change it ends every token from before and every
   * client key (the answer says which): the session goes on as after `changePassword`.
   */
  async confirmTwoFactor(code: string): Promise<TwoFactorConfirmation> {
    const { accessToken, ...confirmation } = await this.api.request<TwoFactorConfirmation & { accessToken: string }>({
      method: 'POST',
      path: '/users/me/two-factor/confirm',
      body: { code },
      auth: this.asAccount(),
    });
    await this.session.continueWith(accessToken);
    return confirmation;
  }

  /** Turns two-factor login off, confirmed with the password and a code (or a recovery code). */
  async disableTwoFactor(password: string, code: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: '/users/me/two-factor', body: { password, code }, auth: this.asAccount() });
  }

  /** A new client key pair; the secret is in this answer only. */
  async createClientKey(): Promise<ClientKey> {
    return this.api.request({ method: 'POST', path: '/users/me/client-keys', auth: this.asAccount() });
  }

  async listClientKeys(): Promise<ClientKeySummary[]> {
    return this.api.request({ method: 'GET', path: '/users/me/client-keys', auth: this.asAccount() });
  }

  /** Deletes a client key; every token minted from it stops working. */
  async removeClientKey(clientId: string): Promise<void> {
    await this.api.request({ method: 'DELETE', path: `/users/me/client-keys/${encodeURIComponent(clientId)}`, auth: this.asAccount() });
  }

  /** The records of your calls, newest first. */
  async events(query: EventsQuery = {}): Promise<CloudEvent[]> {
    return this.api.request({ method: 'GET', path: '/users/me/events', query: { ...query }, auth: this.asAccount() });
  }

  /** The account token as credentials; async callers get NotLoggedInError as a rejection. */
  private asAccount() {
    return { bearer: this.session.accountToken() };
  }
}
