import { REVOCATION_RELEVANT_MS, type Clock } from '@cloud/auth';
import { message, type Outbox, type RpcReply } from '@cloud/bus';
import type { Database, Transaction } from '@cloud/db';
import type { Revocation, RevocationsRepository } from '../data-access/revocations.repository';

export interface RevocationsDependencies {
  db: Database;
  revocations: RevocationsRepository;
  outbox: Outbox;
  clock: Clock;
}

/** Revocations per snapshot page when the asker names no limit. */
const DEFAULT_PAGE = 1000;
/** Rows deleted per statement when pruning, so no single delete holds locks long. */
const PRUNE_BATCH = 10_000;

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

  /**
   * What a starting service needs to know, a page at a time: every revocation still able to
   * matter to it (`REVOCATION_RELEVANT_MS`, from the lifetime of the only token kind other
   * services accept). `after` is the `next` of the previous page.
   */
  snapshot(after: string | undefined, limit = DEFAULT_PAGE): Promise<RpcReply<'revocations.snapshot'>> {
    if (after !== undefined && !/^\d{1,18}$/.test(after)) throw new Error(`bad snapshot cursor ${JSON.stringify(after)}`);
    return this.deps.revocations.snapshotPage(this.relevantSince(), after, limit);
  }

  /** Deletes every revocation no longer able to matter; how many it deleted. */
  async prune(): Promise<number> {
    const before = this.relevantSince();
    let total = 0;
    for (;;) {
      const deleted = await this.deps.revocations.deleteBefore(before, PRUNE_BATCH);
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }

  private relevantSince(): Date {
    return new Date(this.deps.clock() - REVOCATION_RELEVANT_MS);
  }
}
