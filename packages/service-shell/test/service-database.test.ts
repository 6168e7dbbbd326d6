import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@cloud/db/testing';
import type { Database, Migration } from '@cloud/db';
import { createLogger } from '@cloud/logging';
import { migrateServiceDatabase, openDatabaseAtStart, type ServiceSchema } from '../src';

const logger = createLogger({ service: 'service-database-test', level: 'silent' });

const createWidgets: Migration = {
  name: '20261127000000_create_widgets',
  async up(db) {
    await db.schema.createTable('widgets', (table) => table.increments('id'));
  },
  async down(db) {
    await db.schema.dropTable('widgets');
  },
};
const owned: ServiceSchema = { schema: 'widgets', migrations: [createWidgets] };

const hasWidgets = (db: Database) => db.schema.hasTable('widgets');

describe('openDatabaseAtStart', () => {
  it('migrates a database shared in this process, unless RUN_MIGRATIONS is off', async () => {
    const skipped = await createTestDatabase('widgets');
    const migrated = await createTestDatabase('widgets');
    try {
      const settings = { DATA_DIR: '/nowhere', DATABASE_POOL_MAX: 2 };
      expect(await openDatabaseAtStart({ ...settings, RUN_MIGRATIONS: false }, owned, logger, skipped.db)).toBe(skipped.db);
      expect(await hasWidgets(skipped.db)).toBe(false);
      await openDatabaseAtStart({ ...settings, RUN_MIGRATIONS: true }, owned, logger, migrated.db);
      expect(await hasWidgets(migrated.db)).toBe(true);
    } finally {
      await skipped.destroy();
      await migrated.destroy();
    }
  });
});

describe('migrateServiceDatabase (the migrate command)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'service-shell-migrate-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('applies what is pending to the configured database, then nothing more, and closes it', async () => {
    // PGlite under DATA_DIR, as the embedded default: the command's part is opening, migrating and closing.
    const settings = { DATA_DIR: dataDir, DATABASE_POOL_MAX: 2 };
    expect(await migrateServiceDatabase(settings, owned, logger)).toEqual([createWidgets.name]);
    expect(await migrateServiceDatabase(settings, owned, logger)).toEqual([]);
  });
});
