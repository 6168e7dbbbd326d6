import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '@cloud/db';
import { toStreamRecord, type StreamRow } from './stream-record';
import type { StreamRecord } from './stream-types';

/** A block a stream scanned: height and hash. */
export interface KeptBlock {
  height: number;
  hash: string;
}

/** A Bitcoin-family output paying a watched address, seen at `height` (value in coins, decimal). */
export interface TrackedOutput {
  txid: string;
  vout: number;
  address: string;
  value: string;
  height: number;
}

/** An event found by a scan, before it is stored: `body` is the event without its id. */
export interface FoundEvent {
  type: string;
  height: number | null;
  body: object;
}

export interface ScanCommit {
  streamId: string;
  /** The cursor the scan started from: the commit applies only if the row still has it (fencing). */
  expectedCursor: KeptBlock | null;
  /** The last block scanned. */
  cursor: KeptBlock;
  /** Set when the scan found a reorg: the kept blocks and tracked outputs above it are removed first. */
  forkHeight: number | null;
  events: FoundEvent[];
  /** The blocks scanned, kept to see the next reorg. */
  blocks: KeptBlock[];
  /** New outputs paying watched addresses. */
  outputs: TrackedOutput[];
  at: Date;
}

/** Blocks kept per stream below its cursor: how deep a reorg is seen. */
export const KEPT_BLOCKS = 128;

/** Rows per insert, well below PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 500;

const numberOf = (value: string | number): number => Number(value);

/** What a scan reads and writes: the chain a stream saw, its tracked outputs, and the commit of its events. */
export class ScanRepository {
  constructor(private readonly db: Database) {}

  /**
   * In one transaction: locks the stream's row, checks its cursor is still `expectedCursor`
   * (otherwise another scan moved it: nothing is written and `committed` is false), appends the
   * events with the seqs from the row's next_seq (each an `evt-<uuid>` id), moves the cursor,
   * removes the kept blocks and tracked outputs above a fork, keeps the scanned blocks (the last
   * KEPT_BLOCKS) and the new outputs. The stream as its row then is.
   */
  async commitScan(commit: ScanCommit): Promise<{ committed: boolean; stream: StreamRecord }> {
    return this.db.transaction(async (trx) => {
      const row = (await trx('streams').where({ id: commit.streamId }).forUpdate().first()) as StreamRow | undefined;
      if (!row) throw new Error(`stream ${commit.streamId} is gone`);
      const held = toStreamRecord(row).cursor;
      const expected = commit.expectedCursor;
      const same = held === null || expected === null ? held === expected : held.height === expected.height && held.hash === expected.hash;
      if (!same) return { committed: false, stream: toStreamRecord(row) };

      const firstSeq = numberOf(row.next_seq);
      await insertChunks(
        trx,
        'stream_events',
        commit.events.map((event, index) => {
          const id = `evt-${randomUUID()}`;
          return {
            stream_id: commit.streamId,
            seq: firstSeq + index,
            id,
            type: event.type,
            height: event.height,
            body: JSON.stringify({ id, ...event.body }),
            status: 'pending',
            created_at: commit.at,
          };
        }),
      );
      if (commit.forkHeight !== null) {
        await trx('stream_blocks').where({ stream_id: commit.streamId }).andWhere('height', '>', commit.forkHeight).delete();
        await trx('stream_outputs').where({ stream_id: commit.streamId }).andWhere('height', '>', commit.forkHeight).delete();
      }
      for (let i = 0; i < commit.blocks.length; i += INSERT_CHUNK) {
        const rows = commit.blocks.slice(i, i + INSERT_CHUNK).map((block) => ({ stream_id: commit.streamId, height: block.height, hash: block.hash }));
        await trx('stream_blocks').insert(rows).onConflict(['stream_id', 'height']).merge(['hash']);
      }
      await trx('stream_blocks')
        .where({ stream_id: commit.streamId })
        .andWhere('height', '<=', commit.cursor.height - KEPT_BLOCKS)
        .delete();
      for (let i = 0; i < commit.outputs.length; i += INSERT_CHUNK) {
        const rows = commit.outputs.slice(i, i + INSERT_CHUNK).map((output) => ({ stream_id: commit.streamId, ...output }));
        await trx('stream_outputs').insert(rows).onConflict(['stream_id', 'txid', 'vout']).merge(['address', 'value', 'height']);
      }
      const [updated] = (await trx('streams')
        .where({ id: commit.streamId })
        .update({
          cursor_height: commit.cursor.height,
          cursor_hash: commit.cursor.hash,
          next_seq: firstSeq + commit.events.length,
          updated_at: commit.at,
        })
        .returning('*')) as StreamRow[];
      return { committed: true, stream: toStreamRecord(updated!) };
    });
  }

  /** The blocks the stream keeps (its last KEPT_BLOCKS scanned), highest first. */
  async recentBlocks(streamId: string): Promise<KeptBlock[]> {
    const rows = (await this.db('stream_blocks').where({ stream_id: streamId }).orderBy('height', 'desc').select('height', 'hash')) as Array<{
      height: string | number;
      hash: string;
    }>;
    return rows.map((row) => ({ height: numberOf(row.height), hash: row.hash }));
  }

  /** The stream's tracked outputs created by any of `txids` (the transactions whose outputs a block's inputs spend). */
  async watchedOutputs(streamId: string, txids: string[]): Promise<TrackedOutput[]> {
    const unique = [...new Set(txids)];
    const found: TrackedOutput[] = [];
    for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
      const rows = (await this.db('stream_outputs')
        .where({ stream_id: streamId })
        .whereIn('txid', unique.slice(i, i + INSERT_CHUNK))
        .select('txid', 'vout', 'address', 'value', 'height')) as Array<{
        txid: string;
        vout: number;
        address: string;
        value: string;
        height: string | number;
      }>;
      for (const row of rows) found.push({ txid: row.txid, vout: row.vout, address: row.address, value: row.value, height: numberOf(row.height) });
    }
    return found;
  }
}

async function insertChunks(trx: Transaction, table: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx(table).insert(rows.slice(i, i + INSERT_CHUNK));
}
