import { migrateDownAll, migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { toStreamRecord, type StreamRow } from '../src/data-access/stream-record';
import { streamsMigrations, STREAMS_SCHEMA } from '../src/migrations';

const tables = async (test: TestDatabase) =>
  (
    await test.db.raw<{ rows: { table_name: string }[] }>(
      "select table_name from information_schema.tables where table_schema = 'streams' and table_name not like 'knex_%' order by table_name",
    )
  ).rows.map((row) => row.table_name);

describe('streams migrations', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(STREAMS_SCHEMA);
  });
  afterAll(() => test.destroy());

  it('go up with rows in them, come down cleanly, and go up again', async () => {
    expect(await migrateToLatest(test.db, STREAMS_SCHEMA, streamsMigrations)).toEqual(streamsMigrations.map((m) => m.name));
    expect(await tables(test)).toEqual(['outbox', 'stream_blocks', 'stream_deliveries', 'stream_events', 'stream_outputs', 'streams']);
    const now = new Date();
    await test.db('streams').insert({
      id: 'stream-1',
      user_id: 'user-1',
      node_id: 'node-1',
      name: 'blocks',
      kind: 'blocks',
      url: 'https://hooks.example.com/in',
      secret_sealed: 'k.iv.tag.ct',
      created_at: now,
      updated_at: now,
    });
    await test.db('stream_events').insert({ stream_id: 'stream-1', seq: 1, id: 'evt-1', type: 'block', height: 7, body: '{}', created_at: now });
    await test.db('stream_blocks').insert({ stream_id: 'stream-1', height: 7, hash: '0xab' });
    const record = toStreamRecord((await test.db('streams').first()) as StreamRow);
    expect(record).toMatchObject({ state: 'active', addresses: [], topics: [], cursor: null, fromHeight: null, nextSeq: 1, deliveredSeq: 0, attempts: 0 });
    // One seq per stream.
    await expect(
      test.db('stream_events').insert({ stream_id: 'stream-1', seq: 1, id: 'evt-2', type: 'block', height: 8, body: '{}', created_at: now }),
    ).rejects.toThrow(/unique|duplicate/i);
    // A stream's rows go with it.
    await test.db('streams').where({ id: 'stream-1' }).delete();
    expect(Number((await test.db('stream_events').count({ n: '*' }).first())!.n)).toBe(0);

    const reverted = await migrateDownAll(test.db, STREAMS_SCHEMA, streamsMigrations);
    expect(reverted).toEqual(streamsMigrations.map((m) => m.name).reverse());
    expect(await tables(test)).toEqual([]);
    expect(await migrateToLatest(test.db, STREAMS_SCHEMA, streamsMigrations)).toHaveLength(streamsMigrations.length);
  });
});
