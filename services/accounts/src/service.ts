import path from 'node:path';
import { systemClock, type Clock } from '@cloud/auth';
import { connectDatabase, migrateToLatest, type Database } from '@cloud/db';
import { createLogger, type Logger } from '@cloud/logging';
import { ACCOUNTS_SERVICE_NAME, createAccountsApp, type AccountsApp } from './app';
import type { AccountsConfig } from './config';
import { outboxMailer, smtpMailer, type Mailer } from './data-access/mailer';
import { loadAccountsKeys } from './keys';
import { accountsMigrations, ACCOUNTS_SCHEMA } from './migrations';

export interface AccountsService extends AccountsApp {
  db: Database;
  logger: Logger;
  /** Drains pending event writes and closes the database and the mailer. */
  close(): Promise<void>;
}

export interface AccountsServiceOptions {
  logger?: Logger;
  clock?: Clock;
}

/** The accounts database of the configuration: PostgreSQL, or PGlite under $DATA_DIR/db/accounts. */
export function openAccountsDatabase(config: AccountsConfig): Promise<Database> {
  return connectDatabase({
    schema: ACCOUNTS_SCHEMA,
    databaseUrl: config.DATABASE_URL,
    pgliteDirectory: path.join(config.DATA_DIR, 'db', 'accounts'),
    poolMax: config.DATABASE_POOL_MAX,
  });
}

/** Opens the database (running migrations), loads keys, and builds the app: everything but listening. */
export async function createAccountsService(config: AccountsConfig, options: AccountsServiceOptions = {}): Promise<AccountsService> {
  const logger = options.logger ?? createLogger({ service: ACCOUNTS_SERVICE_NAME, level: config.LOG_LEVEL });
  const keys = loadAccountsKeys(config);
  if (keys.generated && config.DATABASE_URL) {
    logger.warn('using keys generated under DATA_DIR; with more than one replica set AUTH_SIGNING_KEY_FILE and CLIENT_SECRET_HASH_KEY_FILE to shared files');
  }
  const db = await openAccountsDatabase(config);
  if (config.RUN_MIGRATIONS) {
    const applied = await migrateToLatest(db, ACCOUNTS_SCHEMA, accountsMigrations);
    if (applied.length > 0) logger.info('migrations applied', { applied });
  }
  const mailer: Mailer = config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM, logger);

  const { app, recorder } = createAccountsApp({
    config,
    logger,
    db,
    mailer,
    signingKey: keys.signingKey,
    clientSecretHashKey: keys.clientSecretHashKey,
    clock: options.clock ?? systemClock,
  });
  return {
    app,
    recorder,
    db,
    logger,
    async close() {
      await recorder.drain();
      mailer.close();
      await db.destroy();
    },
  };
}
