import type { Database } from '@cloud/db';
import type { StreamRecord } from './stream-types';
import { toStreamRecord, type StreamRow } from './stream-record';

/**
 * Which replica scans and delivers each stream: a lease on the stream's row that its holder
 * renews while it runs, and that any replica takes over once it has run out.
 */
export class LeasesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Takes (or renews) the lease of every active stream that is free, expired or already this
   * replica's, until `until`, and returns them as they are now.
   */
  async claim(owner: string, now: Date, until: Date): Promise<StreamRecord[]> {
    const rows = (await this.db('streams')
      .whereNull('deleted_at')
      .andWhere('state', 'active')
      .andWhere((held) => held.where('lease_owner', owner).orWhereNull('lease_until').orWhere('lease_until', '<', now))
      .update({ lease_owner: owner, lease_until: until })
      .returning('*')) as StreamRow[];
    return rows.map(toStreamRecord);
  }

  /** Gives up this replica's leases (at shutdown), so another replica takes the streams over at once. */
  async release(owner: string): Promise<void> {
    await this.db('streams').where('lease_owner', owner).update({ lease_owner: null, lease_until: null });
  }
}
