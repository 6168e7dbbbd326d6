import path from 'node:path';
import { systemClock, type Clock } from '@cloud/auth';
import { openBus, Outbox, type Bus } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { createLogger, type Logger } from '@cloud/logging';
import { openDatabaseAtStart } from '@cloud/service-shell';
import { ACCOUNTS_SERVICE_NAME, createAccountsApp, type AccountsApp } from './app';
import type { AccountsConfig } from './config';
import { outboxMailer, smtpMailer, type Mailer } from './data-access/mailer';
import { RevocationRetentionJob } from './domain/revocation-retention';
import { consumeCallEvents } from './entry-points/messages/call-events.consumer';
import { serveRevocationSnapshots } from './entry-points/messages/revocations.server';
import { loadAccountsKeys } from './keys';
import { accountsMigrations, ACCOUNTS_SCHEMA } from './migrations';

/** How often expired token revocations are deleted: a few minutes late costs a few minutes of rows. */
const REVOCATION_PRUNE_INTERVAL_MS = 10 * 60_000;

export interface AccountsService extends AccountsApp {
  db: Database;
  logger: Logger;
  bus: Bus;
  outbox: Outbox;
  /** Drains pending event writes and e-mails, stops the outbox relay and closes its bus (of a shared one, only its own consumers), the database and the mailer. */
  close(): Promise<void>;
}

export interface AccountsServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** A bus shared with other services in this process; by default the service opens its own from the configuration. */
  bus?: Bus;
}

/** Opens the database (running migrations), loads keys, and builds the app: everything but listening. */
export async function createAccountsService(config: AccountsConfig, options: AccountsServiceOptions = {}): Promise<AccountsService> {
  const logger = options.logger ?? createLogger({ service: ACCOUNTS_SERVICE_NAME, level: config.LOG_LEVEL });
  const keys = loadAccountsKeys(config);
  if (keys.generated && config.DATABASE_URL) {
    logger.warn(
      'using keys generated under DATA_DIR; with more than one replica set AUTH_SIGNING_KEY_FILE, CLIENT_SECRET_HASH_KEY_FILE and TWO_FACTOR_KEY_FILE to shared files',
    );
  }
  const db = await openDatabaseAtStart(config, { schema: ACCOUNTS_SCHEMA, migrations: accountsMigrations }, logger);
  const mailer: Mailer = config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM, logger);

  const bus = await openBus(config, ACCOUNTS_SERVICE_NAME, logger, options.bus);
  const outbox = new Outbox({ db, bus, logger });
  const parts = createAccountsApp({
    config,
    logger,
    db,
    mailer,
    signingKey: keys.signingKey,
    clientSecretHashKey: keys.clientSecretHashKey,
    twoFactorKey: keys.twoFactorKey,
    clock: options.clock ?? systemClock,
    bus,
    outbox,
  });
  await consumeCallEvents(bus, parts.events);
  await serveRevocationSnapshots(bus, parts.revocations);
  outbox.start();
  const retention = new RevocationRetentionJob({ revocations: parts.revocations, logger, intervalMs: REVOCATION_PRUNE_INTERVAL_MS });
  retention.start();
  return {
    ...parts,
    db,
    logger,
    bus,
    outbox,
    async close() {
      await parts.recorder.drain();
      await parts.passwordResets.settle();
      await retention.stop();
      await outbox.stop();
      await bus.close();
      mailer.close();
      await db.destroy();
    },
  };
}
