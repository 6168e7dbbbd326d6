// Applies the staking schema's migrations and exits (`npm run migrate -w services/staking`), for
// deployments that run migrations as a job rather than at start.
import { migrateToLatest, openServiceDatabase } from '@cloud/db';
import { createLogger } from '@cloud/logging';
import { STAKING_SERVICE_NAME } from './app';
import { loadStakingConfig } from './config';
import { stakingMigrations, STAKING_SCHEMA } from './migrations';

async function main() {
  const config = loadStakingConfig();
  const logger = createLogger({ service: STAKING_SERVICE_NAME, level: config.LOG_LEVEL });
  const db = await openServiceDatabase(config, STAKING_SCHEMA, logger);
  try {
    logger.info('migrations applied', { applied: await migrateToLatest(db, STAKING_SCHEMA, stakingMigrations) });
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`staking migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
