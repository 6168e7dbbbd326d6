// Applies the nodes schema's migrations and exits (`npm run migrate -w services/nodes`), for
// deployments that run migrations as a job rather than at start.
import { migrateToLatest, openServiceDatabase } from '@cloud/db';
import { createLogger } from '@cloud/logging';
import { NODES_SERVICE_NAME } from './app';
import { loadNodesConfig } from './config';
import { nodesMigrations, NODES_SCHEMA } from './migrations';

async function main() {
  const config = loadNodesConfig();
  const logger = createLogger({ service: NODES_SERVICE_NAME, level: config.LOG_LEVEL });
  const db = await openServiceDatabase(config, NODES_SCHEMA, logger);
  try {
    logger.info('migrations applied', { applied: await migrateToLatest(db, NODES_SCHEMA, nodesMigrations) });
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`nodes migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
