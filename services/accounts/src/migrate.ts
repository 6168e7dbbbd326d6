// Applies the accounts schema's migrations and exits (`npm run migrate -w services/accounts`),
// for deployments that run migrations as a job rather than at start.
import { migrateToLatest, openServiceDatabase } from '@cloud/db';
import { createLogger } from '@cloud/logging';
import { loadAccountsConfig } from './config';
import { accountsMigrations, ACCOUNTS_SCHEMA } from './migrations';

async function main() {
  const config = loadAccountsConfig();
  const logger = createLogger({ service: 'cloud-accounts', level: config.LOG_LEVEL });
  const db = await openServiceDatabase(config, ACCOUNTS_SCHEMA, logger);
  try {
    logger.info('migrations applied', { applied: await migrateToLatest(db, ACCOUNTS_SCHEMA, accountsMigrations) });
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`accounts migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
