import { migrateToLatest, openServiceDatabase, type Database, type Migration, type ServiceDatabaseSettings } from '@cloud/db';
import type { Logger } from '@cloud/logging';

/** The schema a service owns and the migrations that build it. */
export interface ServiceSchema {
  schema: string;
  migrations: Migration[];
}

/** The variables of `apiServiceEnvironment` (@cloud/config) that decide how a service opens its database. */
export interface StartDatabaseSettings extends ServiceDatabaseSettings {
  RUN_MIGRATIONS: boolean;
}

/**
 * The service's database as it starts: opened as configured (or `shared`, one opened by the caller
 * for several instances in this process), and migrated unless RUN_MIGRATIONS is off because a job
 * runs the migrate command instead.
 */
export async function openDatabaseAtStart(settings: StartDatabaseSettings, owned: ServiceSchema, logger: Logger, shared?: Database): Promise<Database> {
  const db = shared ?? (await openServiceDatabase(settings, owned.schema, logger));
  if (settings.RUN_MIGRATIONS) {
    const applied = await migrateToLatest(db, owned.schema, owned.migrations);
    if (applied.length > 0) logger.info('migrations applied', { applied });
  }
  return db;
}

/** What the migrate command does: opens the database as configured, applies what is pending, closes it. */
export async function migrateServiceDatabase(settings: ServiceDatabaseSettings, owned: ServiceSchema, logger: Logger): Promise<string[]> {
  const db = await openServiceDatabase(settings, owned.schema, logger);
  try {
    const applied = await migrateToLatest(db, owned.schema, owned.migrations);
    logger.info('migrations applied', { applied });
    return applied;
  } finally {
    await db.destroy();
  }
}
