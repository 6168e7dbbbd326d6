import type { Express } from 'express';
import { bearerGuard, staticKeys, TokenSigner, TokenVerifier, type Clock, type SigningKey } from '@cloud/auth';
import { busMetrics, type Bus, type Outbox } from '@cloud/bus';
import { CallRecorder } from '@cloud/call-events';
import type { Database } from '@cloud/db';
import { createHttpApp, mountRoutes } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import { apiReadiness } from '@cloud/service-shell';
import type { AccountsConfig } from './config';
import type { LimitStore } from './data-access/attempt-counts';
import { ClientKeysRepository } from './data-access/client-keys.repository';
import { PasswordResetsRepository } from './data-access/password-resets.repository';
import { EventsRepository } from './data-access/events.repository';
import type { Mailer } from './data-access/mailer';
import { RevocationsRepository } from './data-access/revocations.repository';
import { TwoFactorRepository } from './data-access/two-factor.repository';
import { UsersRepository } from './data-access/users.repository';
import { CallEventLog } from './domain/call-events';
import { ClientKeysService } from './domain/client-keys';
import { AttemptLimit } from './domain/attempt-limit';
import { LoginThrottle } from './domain/login-throttle';
import { PasswordResets } from './domain/password-resets';
import { PasswordHasher } from './domain/passwords';
import { Revocations } from './domain/revocations';
import { databaseRevocationCheck } from './domain/token-revocation';
import { TwoFactorService } from './domain/two-factor';
import { TwoFactorCodes } from './domain/two-factor-codes';
import { TwoFactorCrypto } from './domain/two-factor-crypto';
import { UsersService } from './domain/users';
import { revocationsRouter } from './entry-points/http/revocations.router';
import { accountsOpenApiDocument } from './entry-points/http/openapi';
import { accountsRoutes } from './entry-points/http/routes';
import { ACCOUNTS_SCHEMA } from './migrations';
import { EmailLinks } from './domain/email-links';

export const ACCOUNTS_SERVICE_NAME = 'cloud-accounts';

export interface AccountsAppDependencies {
  config: AccountsConfig;
  logger: Logger;
  db: Database;
  mailer: Mailer;
  signingKey: SigningKey;
  clientSecretHashKey: Buffer;
  twoFactorKey: Buffer;
  clock: Clock;
  bus: Bus;
  outbox: Outbox;
}

export interface AccountsApp {
  app: Express;
  /** Waits for call events still being written. */
  recorder: CallRecorder;
  /** Where every service's call events are stored. */
  events: CallEventLog;
  revocations: Revocations;
  /** Waits for password-reset e-mails being sent. */
  passwordResets: PasswordResets;
}

/** Wires repositories, domain services and routers by hand; no module connects on import. */
export function createAccountsApp(deps: AccountsAppDependencies): AccountsApp {
  const { config, logger, db, clock } = deps;
  const users = new UsersRepository(db);
  const clientKeys = new ClientKeysRepository(db);
  const events = new EventsRepository(db);
  const callEvents = new CallEventLog(events);
  const revocations = new Revocations({ db, revocations: new RevocationsRepository(db), outbox: deps.outbox, clock });

  const signer = new TokenSigner(deps.signingKey, clock);
  const verifier = new TokenVerifier(staticKeys([deps.signingKey.publicKey]), clock);
  const isRevoked = databaseRevocationCheck(users, clientKeys);
  const requireAccount = bearerGuard({ verifier, kind: 'account', isRevoked });

  // Attempt counts: in PostgreSQL when there is one (shared by replicas), else in this process.
  const limitStore: LimitStore = config.DATABASE_URL ? { postgres: { db, schema: ACCOUNTS_SCHEMA } } : {};
  const passwords = new PasswordHasher(config.BCRYPT_ROUNDS);
  const links = new EmailLinks(config.PUBLIC_ACCOUNTS_URL ?? `http://${config.ACCOUNTS_HOST}:${config.ACCOUNTS_PORT}`, config.CONSOLE_URL);
  const twoFactorRepo = new TwoFactorRepository(db);
  const twoFactorCrypto = new TwoFactorCrypto(deps.twoFactorKey);
  const usersService = new UsersService({
    users,
    keys: clientKeys,
    secondFactor: new TwoFactorCodes({ repo: twoFactorRepo, crypto: twoFactorCrypto, clock }),
    passwords,
    revocations,
    throttle: new LoginThrottle({
      ...limitStore,
      maxFailuresPerAccountAndAddress: config.LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS,
      maxFailuresPerAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      maxFailuresPerAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
      blockSeconds: config.LOGIN_BLOCK_SECONDS,
      knownAddressSeconds: config.LOGIN_KNOWN_ADDRESS_DAYS * 86_400,
    }),
    signUpLimit: new AttemptLimit(limitStore, {
      name: 'signup',
      points: config.SIGNUP_MAX_PER_ADDRESS,
      windowSeconds: config.SIGNUP_WINDOW_SECONDS,
      refusal: 'too many sign-ups from this address; try again later',
    }),
    signer,
    mailer: deps.mailer,
    logger,
    clock,
    links,
    verificationTtlHours: config.VERIFICATION_TOKEN_TTL_HOURS,
    verificationResendSeconds: config.VERIFICATION_RESEND_INTERVAL_SECONDS,
  });
  const twoFactorService = new TwoFactorService({
    users: usersService,
    repo: twoFactorRepo,
    crypto: twoFactorCrypto,
    revocations,
    keys: clientKeys,
    mailer: deps.mailer,
    logger,
    clock,
    issuer: config.TWO_FACTOR_ISSUER,
  });
  const resetLimit = (name: string, points: number) =>
    new AttemptLimit(limitStore, {
      name,
      points,
      windowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
      refusal: 'too many password-reset requests; try again later',
    });
  const passwordResets = new PasswordResets({
    users,
    keys: clientKeys,
    passwords,
    revocations,
    resets: new PasswordResetsRepository(db),
    mailer: deps.mailer,
    logger,
    clock,
    links,
    tokenTtlMinutes: config.PASSWORD_RESET_TOKEN_TTL_MINUTES,
    perEmail: resetLimit('reset-email', config.PASSWORD_RESET_MAX_PER_EMAIL),
    perAddress: resetLimit('reset-address', config.PASSWORD_RESET_MAX_PER_ADDRESS),
  });
  const clientKeysService = new ClientKeysService({
    keys: clientKeys,
    users,
    signer,
    verifier,
    isRevoked,
    revocations,
    secretHashKey: deps.clientSecretHashKey,
    clock,
    maxKeysPerUser: config.MAX_CLIENT_KEYS_PER_USER,
  });

  // The accounts service stores its own call events directly: its database is where they end up.
  const recorder = new CallRecorder({ service: ACCOUNTS_SERVICE_NAME, sink: events, logger, clock });
  const app = createHttpApp({
    logger,
    openapi: accountsOpenApiDocument(),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    metrics: { service: ACCOUNTS_SERVICE_NAME, registries: [busMetrics] },
    readiness: apiReadiness({ db, bus: deps.bus }),
    middleware: [recorder.middleware],
    routers: [
      mountRoutes(accountsRoutes, {
        users: usersService,
        passwordResets,
        twoFactor: twoFactorService,
        clientKeys: clientKeysService,
        events: callEvents,
        signingKey: deps.signingKey,
        requireAccount,
      }),
      revocationsRouter(revocations),
    ],
  });
  return { app, recorder, events: callEvents, revocations, passwordResets };
}
