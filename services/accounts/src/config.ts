import { z } from 'zod';
import { apiServiceEnvironment, loadConfig, port, positiveInt } from '@cloud/config';

/** Every variable the accounts service reads; `.env.example` at the repository root documents them. */
export const accountsEnvironment = apiServiceEnvironment.extend({
  ACCOUNTS_PORT: port(3001),
  ACCOUNTS_HOST: z.string().default('127.0.0.1'),
  /** The address users reach this service at; used in the verification e-mail. */
  PUBLIC_ACCOUNTS_URL: z.url().optional(),
  /** smtp://host:port or smtps://user:pass@host:port; unset writes .eml files to $DATA_DIR/mail. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().default('Cloud Nodes <no-reply@nodes.localhost>'),
  /** PEM file of the EC P-256 key that signs tokens; unset: generated once under $DATA_DIR/keys. */
  AUTH_SIGNING_KEY_FILE: z.string().optional(),
  /** File holding the key of the keyed hash of client secrets; unset: generated once under $DATA_DIR/keys. */
  CLIENT_SECRET_HASH_KEY_FILE: z.string().optional(),
  BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(12),
  VERIFICATION_TOKEN_TTL_HOURS: positiveInt(48),
  /** Seconds a user waits between two verification e-mails. */
  VERIFICATION_RESEND_INTERVAL_SECONDS: positiveInt(60),
  MAX_CLIENT_KEYS_PER_USER: positiveInt(20),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: positiveInt(30),
  LOGIN_FAILURE_WINDOW_SECONDS: positiveInt(15 * 60),
  LOGIN_BLOCK_SECONDS: positiveInt(15 * 60),
});

export type AccountsConfig = z.infer<typeof accountsEnvironment>;

export function loadAccountsConfig(env: NodeJS.ProcessEnv = process.env): AccountsConfig {
  return loadConfig(accountsEnvironment, env);
}
