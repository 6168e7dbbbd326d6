import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { openPglite } from './pglite';

export type Database = Knex;
/** A database transaction, or the database itself where a statement runs alone. */
export type Executor = Knex | Knex.Transaction;
export type Transaction = Knex.Transaction;

export interface DatabaseOptions {
  /** The schema the service owns (`accounts`, `nodes`, `staking`); created if missing. */
  schema: string;
  /** PostgreSQL connection string; unset means the embedded PGlite database. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; unset (with no databaseUrl) means in memory, for tests. */
  pgliteDirectory?: string;
  poolMax?: number;
  /**
   * Where knex's own messages go (a connection lost, a pool that cannot connect): the service's
   * logger. Without one they are dropped, never printed to the console.
   */
  logger?: DatabaseLogger;
}

/** The part of a logger the database writes to (a winston logger of @cloud/logging fits). */
export interface DatabaseLogger {
  warn(message: string): unknown;
  error(message: string): unknown;
  debug(message: string): unknown;
}

/**
 * Opens the service's database: PostgreSQL when a URL is given, PGlite (real Postgres compiled to
 * WASM, one connection) otherwise. Either way queries run with `search_path` set to the service's
 * own schema, so repositories never name it.
 */
export async function connectDatabase(options: DatabaseOptions): Promise<Database> {
  const { schema, databaseUrl, pgliteDirectory, poolMax = 10, logger } = options;
  const log = knexLog(logger);
  let db: Knex;
  if (databaseUrl) {
    db = knex({ client: 'pg', connection: databaseUrl, searchPath: [schema], pool: { min: 0, max: poolMax }, log });
  } else {
    if (pgliteDirectory) mkdirSync(path.dirname(pgliteDirectory), { recursive: true });
    db = knex({
      client: ClientPgLite,
      dialect: 'postgres',
      // knex-pglite takes an open instance this way (its types do not say so) and closes it when
      // knex is destroyed.
      connection: { pglite: await openPglite(pgliteDirectory) } as unknown as Knex.StaticConnectionConfig,
      searchPath: [schema],
      log,
    });
  }
  try {
    await db.raw('create schema if not exists ??', [schema]);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/** knex's logger, writing to `logger` (as the database's own messages) or nowhere. */
function knexLog(logger: DatabaseLogger | undefined): Knex.Config['log'] {
  const text = (message: unknown) => (typeof message === 'string' ? message : message instanceof Error ? message.message : JSON.stringify(message));
  const drop = () => undefined;
  if (!logger) return { warn: drop, error: drop, debug: drop, deprecate: drop };
  return {
    warn: (message: unknown) => void logger.warn(`database: ${text(message)}`),
    error: (message: unknown) => void logger.error(`database: ${text(message)}`),
    debug: (message: unknown) => void logger.debug(`database: ${text(message)}`),
    deprecate: (method: string, alternative: string) => void logger.warn(`database: ${method} is deprecated; use ${alternative}`),
  };
}

/** A readiness probe for the database. */
export async function pingDatabase(db: Database): Promise<void> {
  await db.raw('select 1');
}

/** The variables of a service's environment (`apiServiceEnvironment` in @cloud/config) that choose its database. */
export interface ServiceDatabaseSettings {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  DATABASE_POOL_MAX: number;
}

/** A service's database as configured: PostgreSQL at DATABASE_URL, or PGlite under $DATA_DIR/db/<schema>. */
export function openServiceDatabase(settings: ServiceDatabaseSettings, schema: string, logger?: DatabaseLogger): Promise<Database> {
  return connectDatabase({
    schema,
    ...(logger ? { logger } : {}),
    databaseUrl: settings.DATABASE_URL,
    pgliteDirectory: path.join(settings.DATA_DIR, 'db', schema),
    poolMax: settings.DATABASE_POOL_MAX,
  });
}
