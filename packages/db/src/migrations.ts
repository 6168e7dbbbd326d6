import type { Knex } from 'knex';

/** One reversible schema change. Names sort in the order they apply (timestamp prefix). */
export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

// The list is given explicitly (not read from a folder) so the same code runs from TypeScript
// sources in tests and from compiled JavaScript in production.
class ListMigrationSource implements Knex.MigrationSource<Migration> {
  constructor(private readonly migrations: Migration[]) {}
  getMigrations() {
    return Promise.resolve([...this.migrations].sort((a, b) => a.name.localeCompare(b.name)));
  }
  getMigrationName(migration: Migration) {
    return migration.name;
  }
  getMigration(migration: Migration) {
    return Promise.resolve({ up: (db: Knex) => migration.up(db), down: (db: Knex) => migration.down(db) });
  }
}

function migratorConfig(schema: string, migrations: Migration[]): Knex.MigratorConfig {
  return { migrationSource: new ListMigrationSource(migrations), schemaName: schema, tableName: 'knex_migrations' };
}

/** Applies every pending migration, under knex's lock so concurrent starters don't race. Returns the names applied. */
export async function migrateToLatest(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migratorConfig(schema, migrations))) as [number, string[]];
  return applied;
}

/** Reverts every applied migration (tests of the down steps, and operators undoing a release). */
export async function migrateDownAll(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback(migratorConfig(schema, migrations), true)) as [number, string[]];
  return reverted;
}
