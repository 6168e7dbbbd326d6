import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';

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
}

/**
 * Opens the service's database: PostgreSQL when a URL is given, PGlite (real Postgres compiled to
 * WASM, one connection) otherwise. Either way queries run with `search_path` set to the service's
 * own schema, so repositories never name it.
 */
export async function connectDatabase(options: DatabaseOptions): Promise<Database> {
  const { schema, databaseUrl, pgliteDirectory, poolMax = 10 } = options;
  let db: Knex;
  if (databaseUrl) {
    db = knex({ client: 'pg', connection: databaseUrl, searchPath: [schema], pool: { min: 0, max: poolMax } });
  } else {
    if (pgliteDirectory) mkdirSync(path.dirname(pgliteDirectory), { recursive: true });
    db = knex({
      client: ClientPgLite,
      dialect: 'postgres',
      connection: pgliteDirectory ? { filename: pgliteDirectory } : {},
      searchPath: [schema],
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
export function openServiceDatabase(settings: ServiceDatabaseSettings, schema: string): Promise<Database> {
  return connectDatabase({
    schema,
    databaseUrl: settings.DATABASE_URL,
    pgliteDirectory: path.join(settings.DATA_DIR, 'db', schema),
    poolMax: settings.DATABASE_POOL_MAX,
  });
}
