import { z } from 'zod';
import { apiServiceEnvironment, loadConfig, port, positiveInt } from '@cloud/config';

/** Every variable the accounts service reads; `.env.example` at the repository root documents them. */
export const accountsEnvironment = apiServiceEnvironment.extend({
  ACCOUNTS_PORT: port(3001),
  ACCOUNTS_HOST: z.string().default('127.0.0.1'),
  /** The address users reach this service at; used in the verification and password-reset e-mails. */
  PUBLIC_ACCOUNTS_URL: z.url().optional(),
  /** The web console's address: the e-mails' links open its pages (verify, reset the password). */
  CONSOLE_URL: z.url().optional(),
  /** smtp://host:port or smtps://user:pass@host:port; unset writes .eml files to $DATA_DIR/mail. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().default('Cloud Nodes <no-reply@nodes.localhost>'),
  /** PEM file of the EC P-256 key that signs tokens; unset: generated once under $DATA_DIR/keys. */
  AUTH_SIGNING_KEY_FILE: z.string().optional(),
  /** File holding the key of the keyed hash of client secrets; unset: generated once under $DATA_DIR/keys. */
  CLIENT_SECRET_HASH_KEY_FILE: z.string().optional(),
  /** File holding the key (>= 32 bytes) that encrypts two-factor secrets at rest; unset: generated once under $DATA_DIR/keys. */
  TWO_FACTOR_KEY_FILE: z.string().optional(),
  /** The issuer authenticator apps show next to the account (the otpauth URI's issuer). */
  TWO_FACTOR_ISSUER: z.string().trim().min(1).max(64).default('Cloud Nodes'),
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(12),
  VERIFICATION_TOKEN_TTL_HOURS: positiveInt(48),
  /** Seconds a user waits between two verification e-mails. */
  VERIFICATION_RESEND_INTERVAL_SECONDS: positiveInt(60),
  MAX_CLIENT_KEYS_PER_USER: positiveInt(20),
  /** Login throttle (table in the service README): failures of one account from one address. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: positiveInt(5),
  /** Failures from one address, whatever the account. */
  LOGIN_MAX_FAILURES_PER_ADDRESS: positiveInt(30),
  /** Failures of one account from all addresses; past it, only addresses it logged in from lately get through. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(50),
  LOGIN_FAILURE_WINDOW_SECONDS: positiveInt(15 * 60),
  LOGIN_BLOCK_SECONDS: positiveInt(15 * 60),
  /** How long a successful login keeps its address known to the account (at most 24: the in-process store's timers end there). */
  LOGIN_KNOWN_ADDRESS_DAYS: z.coerce.number().int().min(1).max(24).default(14),
  /** Sign-ups from one client address per window. */
  SIGNUP_MAX_PER_ADDRESS: positiveInt(10),
  SIGNUP_WINDOW_SECONDS: positiveInt(60 * 60),
  /** How long a password-reset link works. */
  PASSWORD_RESET_TOKEN_TTL_MINUTES: positiveInt(30),
  /** Password-reset e-mails asked for one address per window. */
  PASSWORD_RESET_MAX_PER_EMAIL: positiveInt(3),
  /** Password-reset requests (asking and using a link) from one client address per window. */
  PASSWORD_RESET_MAX_PER_ADDRESS: positiveInt(10),
  PASSWORD_RESET_WINDOW_SECONDS: positiveInt(60 * 60),
});

export type AccountsConfig = z.infer<typeof accountsEnvironment>;

export function loadAccountsConfig(env: NodeJS.ProcessEnv = process.env): AccountsConfig {
  return loadConfig(accountsEnvironment, env);
}
