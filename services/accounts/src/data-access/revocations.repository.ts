import type { Payload, RpcReply } from '@cloud/bus';
import type { Database, Executor } from '@cloud/db';

/** A revocation as the bus carries it. */
export type Revocation =
  | { kind: 'revocation.client-key-deleted'; payload: Payload<'revocation.client-key-deleted'> }
  | { kind: 'revocation.credentials-changed'; payload: Payload<'revocation.credentials-changed'> }
  | { kind: 'revocation.user-deleted'; payload: Payload<'revocation.user-deleted'> };

interface RevocationRow {
  kind: Revocation['kind'];
  user_id: string;
  client_id: string | null;
  credentials_version: number | null;
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

  /** Every revocation since `since`, folded: one entry per key, the highest version per user. */
  async snapshotSince(since: Date): Promise<RpcReply<'revocations.snapshot'>> {
    const rows = await this.db<RevocationRow>('revocations').where('created_at', '>=', since).select('kind', 'user_id', 'client_id', 'credentials_version');
    const clientKeys = new Map<string, string>();
    const credentials = new Map<string, number>();
    const users = new Set<string>();
    for (const row of rows) {
      if (row.kind === 'revocation.client-key-deleted' && row.client_id) clientKeys.set(row.client_id, row.user_id);
      if (row.kind === 'revocation.credentials-changed' && row.credentials_version !== null) {
        credentials.set(row.user_id, Math.max(row.credentials_version, credentials.get(row.user_id) ?? 0));
      }
      if (row.kind === 'revocation.user-deleted') users.add(row.user_id);
    }
    return {
      clientKeys: [...clientKeys].map(([clientId, userId]) => ({ userId, clientId })),
      credentials: [...credentials].map(([userId, credentialsVersion]) => ({ userId, credentialsVersion })),
      users: [...users],
    };
  }
}
