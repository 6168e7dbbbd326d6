// Test helpers for the accounts service and for other services whose tests need real users and
// client tokens (`@cloud/accounts/testing`). They use dev dependencies (supertest, mailparser):
// never import them from production code.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import type { Bus } from '@cloud/bus';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger, type Logger } from '@cloud/logging';
import { createAccountsService, loadAccountsConfig, type AccountsService } from './index';

/** A clock tests move by hand: token expiry is checked by advancing it, never by waiting. */
export interface FakeClock {
  (): number;
  advance(ms: number): void;
}

export function fakeClock(start = Date.now()): FakeClock {
  let now = start;
  const clock = (() => now) as FakeClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface TestAccounts {
  service: AccountsService;
  http: ReturnType<typeof request>;
  clock: FakeClock;
  dataDir: string;
  /** Every verification token e-mailed to `to`, newest first (read from the dev outbox). */
  verificationTokensFor(to: string): Promise<string[]>;
  /** The verification token of the newest e-mail sent to `to`. */
  verificationTokenFor(to: string): Promise<string>;
  /** Waits until the call events of finished requests are stored and their e-mails sent. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAccountsOptions {
  /** A bus shared with other services of the test (the test closes it); by default the service opens its own from `env`. */
  bus?: Bus;
  logger?: Logger;
}

/**
 * The accounts service as `npm start` builds it (createAccountsService), on a fresh database:
 * a new PostgreSQL database when DATABASE_URL is set, PGlite under a temporary DATA_DIR otherwise.
 * Mail goes to the dev outbox unless `env` sets SMTP_URL. The bus is the in-process one unless
 * `env` sets AMQP_URL (and AMQP_PREFIX) or `options.bus` is given.
 */
export async function startTestAccounts(env: Record<string, string> = {}, clock = fakeClock(), options: TestAccountsOptions = {}): Promise<TestAccounts> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'accounts-test-'));
  let database: TestDatabase | undefined;
  if (process.env.DATABASE_URL) database = await createTestDatabase('accounts');
  const config = loadAccountsConfig({
    DATA_DIR: dataDir,
    BCRYPT_ROUNDS: '4',
    LOG_LEVEL: 'silent',
    // Every test request comes from 127.0.0.1: tests of the per-address limits set them lower.
    SIGNUP_MAX_PER_ADDRESS: '1000',
    PASSWORD_RESET_MAX_PER_ADDRESS: '1000',
    ...(database?.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const service = await createAccountsService(config, {
    clock,
    logger: options.logger ?? createLogger({ service: 'cloud-accounts', level: 'silent' }),
    ...(options.bus ? { bus: options.bus } : {}),
  });
  const mailDir = path.join(dataDir, 'mail');
  const verificationTokensFor = async (to: string): Promise<string[]> => {
    // Outbox file names start with the time they were written, so reverse order is newest first.
    const files = existsSync(mailDir)
      ? readdirSync(mailDir)
          .filter((file) => file.endsWith('.eml'))
          .sort()
          .reverse()
      : [];
    const tokens: string[] = [];
    for (const file of files) {
      const mail = await simpleParser(readFileSync(path.join(mailDir, file)));
      const recipients = [mail.to ?? []].flat().flatMap((address) => address.value.map((v) => v.address));
      const token = /Verification token: (\S+)/.exec(mail.text ?? '')?.[1];
      if (token && recipients.includes(to.toLowerCase())) tokens.push(token);
    }
    return tokens;
  };
  return {
    service,
    http: request(service.app),
    clock,
    dataDir,
    verificationTokensFor,
    async verificationTokenFor(to) {
      const [newest] = await verificationTokensFor(to);
      if (!newest) throw new Error(`no verification e-mail to ${to}`);
      return newest;
    },
    async settle() {
      await service.passwordResets.settle();
      await service.recorder.drain();
    },
    async close() {
      await service.close();
      await database?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PASSWORD = 'correct horse battery 42';

let counter = 0;
/** A fresh, unique e-mail address. */
export function uniqueEmail(name = 'user'): string {
  counter += 1;
  return `${name}.${process.pid}.${counter}@example.com`;
}

/** Signs up and verifies a user; returns their id, e-mail and an account token. */
export async function verifiedUser(t: TestAccounts, email = uniqueEmail()): Promise<{ id: string; email: string; accountToken: string }> {
  const signUp = await t.http.post('/users').send({ email, password: PASSWORD, displayName: 'Test User' }).expect(201);
  const id = (signUp.body as { id: string }).id;
  await t.http.put(`/users/${id}/token/${await t.verificationTokenFor(email)}`).expect(200);
  const login = await t.http.post('/auth').auth(email, PASSWORD).expect(200);
  return { id, email, accountToken: (login.body as { accessToken: string }).accessToken };
}

/** Makes a client key for the user and trades it for client tokens. */
export async function clientTokens(t: TestAccounts, accountToken: string) {
  const key = await t.http.post('/users/me/client-keys').set('authorization', `Bearer ${accountToken}`).expect(200);
  const { clientId, clientSecret } = key.body as { clientId: string; clientSecret: string };
  const tokens = await t.http.post('/auth/token').send({ grantType: 'clientCredentials', clientId, clientSecret }).expect(200);
  return { clientId, clientSecret, ...(tokens.body as { accessToken: string; refreshToken: string }) };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Polls `condition` until it holds (returns anything but false/undefined without throwing),
 * failing with `what` and the last error once `timeoutMs` has passed. Resolves to the time it took.
 */
export async function waitUntil(what: string, condition: () => unknown, timeoutMs = 10_000, intervalMs = 10): Promise<number> {
  const started = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      const result: unknown = await condition();
      if (result !== false && result !== undefined) return Date.now() - started;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() - started > timeoutMs) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
