import type { Clock } from '@cloud/auth';
import type { AnyBusMessage, Payload } from '@cloud/bus';
import type { Database } from '@cloud/db';
import type { Logger } from '@cloud/logging';
import type { CallRow, CredentialCallRow, Granularity, MemberCallRow, TrafficRow, UsageRepository } from '../data-access/usage.repository';

const STEP_MS: Record<Granularity, number> = { minute: 60_000, hour: 3_600_000 };
export const GRANULARITIES = ['minute', 'hour'] as const satisfies readonly Granularity[];

/** The start of the bucket `time` falls in. */
export function bucketStart(time: number, granularity: Granularity): number {
  return Math.floor(time / STEP_MS[granularity]) * STEP_MS[granularity];
}

export function bucketStep(granularity: Granularity): number {
  return STEP_MS[granularity];
}

export interface UsageRetention {
  /** How long minute buckets are kept; also how long a message id is remembered, and how late a message may come. */
  minuteMs: number;
  hourMs: number;
}

/**
 * Adds the node-proxy's `node.usage` counts to minute and hour buckets, each message once: its id
 * is claimed in the same transaction as the counts, so a redelivered or replayed message adds
 * nothing. Ids are remembered as long as minute buckets are kept, and a message whose interval
 * began before that is dropped, since it could no longer be told from one already counted.
 *
 * An entry is stored under its `nodeId` and `userId` as it comes, without looking the id up: a
 * pool's (`pool-<uuid>`) like a node's, and a node or pool deleted since still has its calls
 * counted for its owner. A message from a proxy older than issue 31 has no `cachedCalls` or
 * `members`; the bus's schema reads them as 0 and none.
 */
export class UsageIngest {
  constructor(private readonly deps: { db: Database; usage: UsageRepository; clock: Clock; logger: Logger; retention: UsageRetention }) {}

  /** Counts `node.usage` messages; `revocation.user-deleted` deletes the user's buckets. */
  async ingest(messages: readonly AnyBusMessage[]): Promise<void> {
    for (const each of messages) {
      if (each.kind === 'node.usage') await this.add(each.id, each.payload);
      if (each.kind === 'revocation.user-deleted') await this.deps.usage.deleteUser(each.payload.userId);
    }
  }

  /** Deletes buckets and message ids past their retention. */
  async enforceRetention(): Promise<{ minute: number; hour: number; messages: number }> {
    const { usage, clock, retention } = this.deps;
    const now = clock();
    return {
      minute: await usage.deleteBucketsBefore('minute', new Date(now - retention.minuteMs)),
      hour: await usage.deleteBucketsBefore('hour', new Date(now - retention.hourMs)),
      messages: await usage.deleteMessagesBefore(new Date(now - retention.minuteMs)),
    };
  }

  private async add(id: string, payload: Payload<'node.usage'>): Promise<void> {
    const { db, usage, clock, logger, retention } = this.deps;
    const now = clock();
    const from = Date.parse(payload.from);
    if (from < now - retention.minuteMs) {
      logger.warn('dropped a node.usage message older than the usage retention', { id, proxyId: payload.proxyId, from: payload.from });
      return;
    }
    await db.transaction(async (trx) => {
      if (!(await usage.claimMessage(trx, id, new Date(now)))) return;
      for (const granularity of GRANULARITIES) {
        const start = new Date(bucketStart(from, granularity));
        const calls: CallRow[] = payload.nodes.flatMap((node) =>
          node.calls.map((call) => ({
            bucketStart: start,
            nodeId: node.nodeId,
            userId: node.userId,
            method: call.method,
            outcome: call.outcome,
            calls: call.calls,
          })),
        );
        const traffic: TrafficRow[] = payload.nodes.map((node) => ({
          bucketStart: start,
          nodeId: node.nodeId,
          userId: node.userId,
          requests: node.requests,
          bytesIn: node.bytesIn,
          bytesOut: node.bytesOut,
          cachedCalls: node.cachedCalls,
        }));
        const byCredential: CredentialCallRow[] = payload.nodes.flatMap((node) =>
          node.credentials.map((each) => ({
            bucketStart: start,
            nodeId: node.nodeId,
            userId: node.userId,
            credentialId: each.credentialId,
            outcome: each.outcome,
            calls: each.calls,
          })),
        );
        await usage.addCalls(trx, granularity, calls);
        await usage.addCredentialCalls(trx, granularity, byCredential);
        await usage.addTraffic(trx, granularity, traffic);
        await usage.addMemberCalls(trx, granularity, memberCalls(payload, start));
      }
    });
  }
}

/** A pool's calls per member, a member listed twice in one entry added up into one row. */
function memberCalls(payload: Payload<'node.usage'>, bucketStart: Date): MemberCallRow[] {
  const rows = new Map<string, MemberCallRow>();
  for (const node of payload.nodes) {
    for (const member of node.members) {
      const key = JSON.stringify([node.nodeId, member.nodeId]);
      const row = rows.get(key);
      if (row) row.calls += member.calls;
      else rows.set(key, { bucketStart, nodeId: node.nodeId, userId: node.userId, memberId: member.nodeId, calls: member.calls });
    }
  }
  return [...rows.values()];
}
