import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase, migrateDownAll, migrateToLatest, pingDatabase, type Migration } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const migrations: Migration[] = [
  {
    name: '20260101000002_add_colour',
    up: (db) => db.schema.alterTable('widgets', (t) => t.string('colour')),
    down: (db) => db.schema.alterTable('widgets', (t) => t.dropColumn('colour')),
  },
  {
    name: '20260101000001_create_widgets',
    up: (db) => db.schema.createTable('widgets', (t) => t.string('id').primary()),
    down: (db) => db.schema.dropTable('widgets'),
  },
];

const tableExists = async (test: TestDatabase) =>
  (await test.db.raw<{ rows: unknown[] }>("select 1 from information_schema.tables where table_schema = 'widgets' and table_name = 'widgets'")).rows.length > 0;

describe(`database (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase('widgets');
  });
  afterAll(() => test.destroy());

  it('applies migrations in name order inside the service schema, once', async () => {
    expect(await migrateToLatest(test.db, 'widgets', migrations)).toEqual(['20260101000001_create_widgets', '20260101000002_add_colour']);
    expect(await migrateToLatest(test.db, 'widgets', migrations)).toEqual([]);
    await test.db('widgets').insert({ id: 'w1', colour: 'red' });
    // search_path is the service schema, so unqualified names land there.
    expect(await test.db.withSchema('widgets').from('widgets').select('*')).toEqual([{ id: 'w1', colour: 'red' }]);
    await pingDatabase(test.db);
  });

  it('reverts every migration', async () => {
    expect(await migrateDownAll(test.db, 'widgets', migrations)).toEqual(['20260101000002_add_colour', '20260101000001_create_widgets']);
    expect(await tableExists(test)).toBe(false);
  });
});

describe('embedded PGlite on disk', () => {
  it('keeps data across reopening', async () => {
    const directory = path.join(mkdtempSync(path.join(os.tmpdir(), 'pglite-')), 'db', 'widgets');
    const first = await connectDatabase({ schema: 'widgets', pgliteDirectory: directory });
    await migrateToLatest(first, 'widgets', migrations);
    await first('widgets').insert({ id: 'kept' });
    await first.destroy();
    const second = await connectDatabase({ schema: 'widgets', pgliteDirectory: directory });
    expect(await second('widgets').pluck('id')).toEqual(['kept']);
    await second.destroy();
  });
});

describe('the database’s own messages', () => {
  it('go to the service’s logger, never to the console', async () => {
    // A port nothing listens on: what knex says when PostgreSQL is down.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const warned: string[] = [];
    const logger = { warn: (m: string) => warned.push(m), error: (m: string) => warned.push(m), debug: () => undefined };
    const console$ = jest.spyOn(console, 'log');
    try {
      await expect(connectDatabase({ schema: 'widgets', databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, logger })).rejects.toThrow(
        'ECONNREFUSED',
      );
      expect(warned.some((message) => /^database: Acquire connection error: .*ECONNREFUSED/.test(message))).toBe(true);
      expect(console$).not.toHaveBeenCalled();
    } finally {
      console$.mockRestore();
    }
  });
});
