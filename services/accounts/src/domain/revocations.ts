import { TOKEN_LIFETIME_SECONDS, type Clock } from '@cloud/auth';
import { message, type Outbox, type RpcReply } from '@cloud/bus';
import type { Database, Transaction } from '@cloud/db';
import type { Revocation, RevocationsRepository } from '../data-access/revocations.repository';

export interface RevocationsDependencies {
  db: Database;
  revocations: RevocationsRepository;
  outbox: Outbox;
  clock: Clock;
}

// A revocation matters while a token issued before it can still be alive; a minute on top for clock skew.
const RELEVANT_FOR_MS = (Math.max(...Object.values(TOKEN_LIFETIME_SECONDS)) + 60) * 1000;

/**
 * Changes that kill tokens (a deleted client key, a password change, a deleted user) commit
 * together with their revocation: the row other services rebuild from, and the outbox message
 * that tells them at once. Either all three happen or none does.
 */
export class Revocations {
  constructor(private readonly deps: RevocationsDependencies) {}

  /**
   * Runs `change` in a transaction; when it made a change (a truthy result), records and
   * announces the revocation `revocationOf` names, in the same transaction.
   */
  async revokeWith<T>(change: (trx: Transaction) => Promise<T>, revocationOf: (result: NonNullable<T>) => Revocation): Promise<T> {
    return this.deps.db.transaction(async (trx) => {
      const result = await change(trx);
      if (result) {
        const revocation = revocationOf(result);
        const now = new Date(this.deps.clock());
        await this.deps.revocations.insert(trx, revocation, now);
        await this.deps.outbox.add(trx, [message(revocation.kind, revocation.payload, now)]);
      }
      return result;
    });
  }

  /** What a starting service needs to know: every revocation still able to matter. */
  snapshot(): Promise<RpcReply<'revocations.snapshot'>> {
    return this.deps.revocations.snapshotSince(new Date(this.deps.clock() - RELEVANT_FOR_MS));
  }
}
