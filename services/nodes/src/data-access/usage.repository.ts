import type { Database, Executor } from '@cloud/db';
import type { UsageOutcome } from '@cloud/bus';

export type Granularity = 'minute' | 'hour';

/** Whose usage a query reads: one node's, or every node of a user. */
export type UsageScope = { nodeId: string } | { userId: string };

export interface UsageRange {
  granularity: Granularity;
  /** Buckets starting at or after `from` and before `to`. */
  from: Date;
  to: Date;
}

export interface CallRow {
  bucketStart: Date;
  nodeId: string;
  userId: string;
  method: string;
  outcome: UsageOutcome;
  calls: number;
}

export interface CredentialCallRow {
  bucketStart: Date;
  nodeId: string;
  userId: string;
  credentialId: string;
  outcome: UsageOutcome;
  calls: number;
}

export interface TrafficRow {
  bucketStart: Date;
  nodeId: string;
  userId: string;
  requests: number;
  bytesIn: number;
  bytesOut: number;
  /** Calls answered from the proxy's cache or tracked head (also in the calls rows). */
  cachedCalls: number;
}

/** A pool's calls one member node served (`nodeId`: the pool's). */
export interface MemberCallRow {
  bucketStart: Date;
  nodeId: string;
  userId: string;
  memberId: string;
  calls: number;
}

// PostgreSQL answers bigint sums as text; counts stay far below 2^53.
const num = (value: unknown): number => Number(value ?? 0);

/** A grouped row as the database answers it. */
type Summed = {
  bucket_start: Date;
  node_id: string;
  method: string;
  credential_id: string;
  member_id: string;
  outcome: UsageOutcome;
  calls: unknown;
  bytes_in: unknown;
  bytes_out: unknown;
  cached_calls: unknown;
};
const rowsOf = (rows: unknown): Summed[] => rows as Summed[];

export interface TrafficSums {
  bytesIn: number;
  bytesOut: number;
  cachedCalls: number;
}
const TRAFFIC_SUMS = { bytes_in: 'bytes_in', bytes_out: 'bytes_out', cached_calls: 'cached_calls' };
const trafficSums = (row: Summed): TrafficSums => ({ bytesIn: num(row.bytes_in), bytesOut: num(row.bytes_out), cachedCalls: num(row.cached_calls) });

/** The tables of time buckets, all under the same retention. */
const BUCKET_TABLES = ['usage_calls', 'usage_credential_calls', 'usage_traffic', 'usage_member_calls'] as const;

/** The usage tables: counts added to time buckets, the ids of counted messages, and reads by range. */
export class UsageRepository {
  constructor(private readonly db: Database) {}

  /** Notes a message as counted; false when it was counted before (a redelivery or a replay). */
  async claimMessage(trx: Executor, id: string, receivedAt: Date): Promise<boolean> {
    const inserted = await trx('usage_messages').insert({ id, received_at: receivedAt }).onConflict('id').ignore().returning('id');
    return inserted.length > 0;
  }

  async addCalls(trx: Executor, granularity: Granularity, rows: readonly CallRow[]): Promise<void> {
    await this.addCallCounts(trx, 'usage_calls', 'method', granularity, rows, (row) => row.method);
  }

  async addCredentialCalls(trx: Executor, granularity: Granularity, rows: readonly CredentialCallRow[]): Promise<void> {
    await this.addCallCounts(trx, 'usage_credential_calls', 'credential_id', granularity, rows, (row) => row.credentialId);
  }

  async addTraffic(trx: Executor, granularity: Granularity, rows: readonly TrafficRow[]): Promise<void> {
    if (rows.length === 0) return;
    await trx('usage_traffic')
      .insert(
        rows.map((row) => ({
          granularity,
          bucket_start: row.bucketStart,
          node_id: row.nodeId,
          user_id: row.userId,
          requests: row.requests,
          bytes_in: row.bytesIn,
          bytes_out: row.bytesOut,
          cached_calls: row.cachedCalls,
        })),
      )
      .onConflict(['granularity', 'node_id', 'bucket_start'])
      .merge({
        requests: trx.raw('usage_traffic.requests + excluded.requests'),
        bytes_in: trx.raw('usage_traffic.bytes_in + excluded.bytes_in'),
        bytes_out: trx.raw('usage_traffic.bytes_out + excluded.bytes_out'),
        cached_calls: trx.raw('usage_traffic.cached_calls + excluded.cached_calls'),
      });
  }

  /** Adds pools' calls per member; one row per pool and member (PostgreSQL refuses to merge into a row twice in one statement). */
  async addMemberCalls(trx: Executor, granularity: Granularity, rows: readonly MemberCallRow[]): Promise<void> {
    if (rows.length === 0) return;
    await trx('usage_member_calls')
      .insert(
        rows.map((row) => ({
          granularity,
          bucket_start: row.bucketStart,
          node_id: row.nodeId,
          user_id: row.userId,
          member_id: row.memberId,
          calls: row.calls,
        })),
      )
      .onConflict(['granularity', 'node_id', 'bucket_start', 'member_id'])
      .merge({ calls: trx.raw('usage_member_calls.calls + excluded.calls') });
  }

  /** Calls per bucket and outcome. */
  async callsByBucket(scope: UsageScope, range: UsageRange): Promise<{ bucketStart: Date; outcome: UsageOutcome; calls: number }[]> {
    const rows = rowsOf(
      await this.inRange('usage_calls', scope, range).select('bucket_start', 'outcome').sum({ calls: 'calls' }).groupBy('bucket_start', 'outcome'),
    );
    return rows.map((row) => ({ bucketStart: new Date(row.bucket_start), outcome: row.outcome, calls: num(row.calls) }));
  }

  /** Calls per method and outcome over the whole range. */
  async callsByMethod(scope: UsageScope, range: UsageRange): Promise<{ method: string; outcome: UsageOutcome; calls: number }[]> {
    const rows = rowsOf(await this.inRange('usage_calls', scope, range).select('method', 'outcome').sum({ calls: 'calls' }).groupBy('method', 'outcome'));
    return rows.map((row) => ({ method: row.method, outcome: row.outcome, calls: num(row.calls) }));
  }

  /** Calls per node and outcome over the whole range. */
  async callsByNode(scope: UsageScope, range: UsageRange): Promise<{ nodeId: string; outcome: UsageOutcome; calls: number }[]> {
    const rows = rowsOf(await this.inRange('usage_calls', scope, range).select('node_id', 'outcome').sum({ calls: 'calls' }).groupBy('node_id', 'outcome'));
    return rows.map((row) => ({ nodeId: row.node_id, outcome: row.outcome, calls: num(row.calls) }));
  }

  /** Calls per credential and outcome over the whole range. */
  async callsByCredential(scope: UsageScope, range: UsageRange): Promise<{ credentialId: string; outcome: UsageOutcome; calls: number }[]> {
    const rows = rowsOf(
      await this.inRange('usage_credential_calls', scope, range).select('credential_id', 'outcome').sum({ calls: 'calls' }).groupBy('credential_id', 'outcome'),
    );
    return rows.map((row) => ({ credentialId: row.credential_id, outcome: row.outcome, calls: num(row.calls) }));
  }

  /** Bytes and cached calls per bucket. */
  async trafficByBucket(scope: UsageScope, range: UsageRange): Promise<({ bucketStart: Date } & TrafficSums)[]> {
    const rows = rowsOf(await this.inRange('usage_traffic', scope, range).select('bucket_start').sum(TRAFFIC_SUMS).groupBy('bucket_start'));
    return rows.map((row) => ({ bucketStart: new Date(row.bucket_start), ...trafficSums(row) }));
  }

  /** Bytes and cached calls per node (or pool). */
  async trafficByNode(scope: UsageScope, range: UsageRange): Promise<({ nodeId: string } & TrafficSums)[]> {
    const rows = rowsOf(await this.inRange('usage_traffic', scope, range).select('node_id').sum(TRAFFIC_SUMS).groupBy('node_id'));
    return rows.map((row) => ({ nodeId: row.node_id, ...trafficSums(row) }));
  }

  /** A pool's calls per member node over the whole range. */
  async callsByMember(scope: UsageScope, range: UsageRange): Promise<{ memberId: string; calls: number }[]> {
    const rows = rowsOf(await this.inRange('usage_member_calls', scope, range).select('member_id').sum({ calls: 'calls' }).groupBy('member_id'));
    return rows.map((row) => ({ memberId: row.member_id, calls: num(row.calls) }));
  }

  /** Deletes the buckets of a granularity that start before `before`; how many rows went. */
  async deleteBucketsBefore(granularity: Granularity, before: Date): Promise<number> {
    let deleted = 0;
    for (const table of BUCKET_TABLES) deleted += await this.db(table).where({ granularity }).where('bucket_start', '<', before).delete();
    return deleted;
  }

  /** Deletes every bucket of a user's nodes and pools (the user was deleted), all at once: no report sees part of it gone. */
  async deleteUser(userId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      for (const table of BUCKET_TABLES) await trx(table).where({ user_id: userId }).delete();
    });
  }

  /** Forgets the ids of messages counted before `before`. */
  async deleteMessagesBefore(before: Date): Promise<number> {
    return this.db('usage_messages').where('received_at', '<', before).delete();
  }

  /** Adds counts to the buckets of a calls table, whose rows are told apart by one more column (the method or the credential). */
  private async addCallCounts<Row extends CallRow | CredentialCallRow>(
    trx: Executor,
    table: 'usage_calls' | 'usage_credential_calls',
    keyColumn: 'method' | 'credential_id',
    granularity: Granularity,
    rows: readonly Row[],
    keyOf: (row: Row) => string,
  ): Promise<void> {
    if (rows.length === 0) return;
    await trx(table)
      .insert(
        rows.map((row) => ({
          granularity,
          bucket_start: row.bucketStart,
          node_id: row.nodeId,
          user_id: row.userId,
          [keyColumn]: keyOf(row),
          outcome: row.outcome,
          calls: row.calls,
        })),
      )
      .onConflict(['granularity', 'node_id', 'bucket_start', keyColumn, 'outcome'])
      .merge({ calls: trx.raw(`${table}.calls + excluded.calls`) });
  }

  private inRange(table: (typeof BUCKET_TABLES)[number], scope: UsageScope, range: UsageRange) {
    const where = 'nodeId' in scope ? { node_id: scope.nodeId } : { user_id: scope.userId };
    return this.db(table)
      .where({ ...where, granularity: range.granularity })
      .where('bucket_start', '>=', range.from)
      .where('bucket_start', '<', range.to);
  }
}
