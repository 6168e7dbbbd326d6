import type { Payload, RpcReply } from '@cloud/bus';
import type { Database, Executor } from '@cloud/db';

/** A revocation as the bus carries it. */
export type Revocation =
  | { kind: 'revocation.client-key-deleted'; payload: Payload<'revocation.client-key-deleted'> }
  | { kind: 'revocation.credentials-changed'; payload: Payload<'revocation.credentials-changed'> }
  | { kind: 'revocation.user-deleted'; payload: Payload<'revocation.user-deleted'> };

interface RevocationRow {
  seq: string | number;
  kind: Revocation['kind'];
  user_id: string;
  client_id: string | null;
  credentials_version: number | null;
  created_at: Date | string;
}

export class RevocationsRepository {
  constructor(private readonly db: Database) {}

  async insert(executor: Executor, revocation: Revocation, at: Date): Promise<void> {
    const { payload } = revocation;
    await executor('revocations').insert({
      kind: revocation.kind,
      user_id: payload.userId,
      client_id: 'clientId' in payload ? payload.clientId : null,
      credentials_version: 'credentialsVersion' in payload ? payload.credentialsVersion : null,
      created_at: at,
    });
  }

  /**
   * A page of the revocations made since `since`, oldest first (by `seq`, from the first after
   * `after`), folded: one entry per key, the highest version per user.
   */
  async snapshotPage(since: Date, after: string | undefined, limit: number): Promise<RpcReply<'revocations.snapshot'>> {
    const rows = await this.db<RevocationRow>('revocations')
      .where('created_at', '>=', since)
      .andWhere('seq', '>', after === undefined ? 0 : Number(after))
      .orderBy('seq')
      .limit(limit)
      .select('seq', 'kind', 'user_id', 'client_id', 'credentials_version', 'created_at');
    const clientKeys = new Map<string, string>();
    const credentials = new Map<string, number>();
    const users = new Set<string>();
    let latest = 0;
    for (const row of rows) {
      if (row.kind === 'revocation.client-key-deleted' && row.client_id) clientKeys.set(row.client_id, row.user_id);
      if (row.kind === 'revocation.credentials-changed' && row.credentials_version !== null) {
        credentials.set(row.user_id, Math.max(row.credentials_version, credentials.get(row.user_id) ?? 0));
      }
      if (row.kind === 'revocation.user-deleted') users.add(row.user_id);
      latest = Math.max(latest, new Date(row.created_at).getTime());
    }
    const last = rows.at(-1);
    return {
      clientKeys: [...clientKeys].map(([clientId, userId]) => ({ userId, clientId })),
      credentials: [...credentials].map(([userId, credentialsVersion]) => ({ userId, credentialsVersion })),
      users: [...users],
      ...(last ? { latestAt: new Date(latest).toISOString() } : {}),
      next: last && rows.length === limit ? String(last.seq) : null,
    };
  }

  /** Deletes up to `limit` revocations made before `before`; how many it deleted. */
  async deleteBefore(before: Date, limit: number): Promise<number> {
    // returning() rather than the affected-row count: knex-pglite does not report the count.
    const deleted: unknown[] = await this.db('revocations')
      .whereIn('seq', this.db('revocations').where('created_at', '<', before).orderBy('seq').limit(limit).select('seq'))
      .delete()
      .returning('seq');
    return deleted.length;
  }
}
