import type { Express } from 'express';
import { bearerGuard, staticKeys, TokenSigner, TokenVerifier, type Clock, type SigningKey } from '@cloud/auth';
import type { Bus, Outbox } from '@cloud/bus';
import { CallRecorder } from '@cloud/call-events';
import { pingDatabase, type Database } from '@cloud/db';
import { createHttpApp } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { AccountsConfig } from './config';
import { ClientKeysRepository } from './data-access/client-keys.repository';
import { EventsRepository } from './data-access/events.repository';
import type { Mailer } from './data-access/mailer';
import { RevocationsRepository } from './data-access/revocations.repository';
import { UsersRepository } from './data-access/users.repository';
import { ClientKeysService } from './domain/client-keys';
import { LoginThrottle } from './domain/login-throttle';
import { PasswordHasher } from './domain/passwords';
import { Revocations } from './domain/revocations';
import { databaseRevocationCheck } from './domain/token-revocation';
import { UsersService } from './domain/users';
import { authRouter } from './entry-points/http/auth.router';
import { clientKeysRouter } from './entry-points/http/client-keys.router';
import { eventsRouter } from './entry-points/http/events.router';
import { accountsOpenApiDocument } from './entry-points/http/openapi';
import { ACCOUNTS_SCHEMA } from './migrations';
import { usersRouter } from './entry-points/http/users.router';

export const ACCOUNTS_SERVICE_NAME = 'cloud-accounts';

export interface AccountsAppDependencies {
  config: AccountsConfig;
  logger: Logger;
  db: Database;
  mailer: Mailer;
  signingKey: SigningKey;
  clientSecretHashKey: Buffer;
  clock: Clock;
  bus: Bus;
  outbox: Outbox;
}

export interface AccountsApp {
  app: Express;
  /** Waits for call events still being written. */
  recorder: CallRecorder;
  /** Where every service's call events are stored. */
  events: EventsRepository;
  revocations: Revocations;
}

/** Wires repositories, domain services and routers by hand; no module connects on import. */
export function createAccountsApp(deps: AccountsAppDependencies): AccountsApp {
  const { config, logger, db, clock } = deps;
  const users = new UsersRepository(db);
  const clientKeys = new ClientKeysRepository(db);
  const events = new EventsRepository(db);
  const revocations = new Revocations({ db, revocations: new RevocationsRepository(db), outbox: deps.outbox, clock });

  const signer = new TokenSigner(deps.signingKey, clock);
  const verifier = new TokenVerifier(staticKeys([deps.signingKey.publicKey]), clock);
  const isRevoked = databaseRevocationCheck(users, clientKeys);
  const requireAccount = bearerGuard({ verifier, kind: 'account', isRevoked });

  const usersService = new UsersService({
    users,
    passwords: new PasswordHasher(config.BCRYPT_ROUNDS),
    revocations,
    throttle: new LoginThrottle({
      maxFailuresPerAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
      blockSeconds: config.LOGIN_BLOCK_SECONDS,
      ...(config.DATABASE_URL ? { postgres: { db, schema: ACCOUNTS_SCHEMA } } : {}),
    }),
    signer,
    mailer: deps.mailer,
    logger,
    clock,
    accountsUrl: config.PUBLIC_ACCOUNTS_URL ?? `http://${config.ACCOUNTS_HOST}:${config.ACCOUNTS_PORT}`,
    verificationTtlHours: config.VERIFICATION_TOKEN_TTL_HOURS,
    verificationResendSeconds: config.VERIFICATION_RESEND_INTERVAL_SECONDS,
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
    readiness: [
      { name: 'database', check: () => pingDatabase(db) },
      { name: 'message bus', check: () => deps.bus.checkReady() },
    ],
    middleware: [recorder.middleware],
    routers: [
      usersRouter(usersService, requireAccount),
      authRouter(usersService, clientKeysService, deps.signingKey),
      clientKeysRouter(clientKeysService, requireAccount),
      eventsRouter(events, requireAccount),
    ],
  });
  return { app, recorder, events, revocations };
}
