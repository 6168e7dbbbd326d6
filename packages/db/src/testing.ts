import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { connectDatabase, type Database } from './connect';

export interface TestDatabase {
  db: Database;
  /** The connection string of the fresh database, or undefined on PGlite. */
  url: string | undefined;
  /** Closes the connection and drops the database. */
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** The PostgreSQL server to make the database on; default `DATABASE_URL`. */
  serverUrl?: string;
  /** Connections of the pool (PostgreSQL only); default 4. */
  poolMax?: number;
}

/**
 * A fresh, empty database for one test file (or benchmark run): on the PostgreSQL server of
 * `serverUrl` or `DATABASE_URL` when one is set (a new database per call, dropped by `destroy`,
 * so parallel test files and runs never see each other's rows), otherwise an in-memory PGlite
 * database.
 */
export async function createTestDatabase(schema: string, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? process.env.DATABASE_URL;
  if (!serverUrl) {
    const db = await connectDatabase({ schema });
    return { db, url: undefined, destroy: () => db.destroy() };
  }
  const name = `test_${schema}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw('create database ??', [name]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await connectDatabase({ schema, databaseUrl: url.toString(), poolMax: options.poolMax ?? 4 });
  return {
    db,
    url: url.toString(),
    destroy: async () => {
      await db.destroy();
      await admin.raw('drop database if exists ?? with (force)', [name]);
      await admin.destroy();
    },
  };
}
