import type { Logger } from '@cloud/logging';
import { PeriodicJob } from '@cloud/service-shell';
import type { Revocations } from './revocations';

/**
 * Deletes the revocations no token they could kill outlives, at start and every interval, so the
 * table (and the snapshot every starting service reads) holds about one token lifetime of them
 * however long the platform runs. Every replica may run it: the deletes agree.
 */
export class RevocationRetentionJob extends PeriodicJob {
  constructor(deps: { revocations: Revocations; logger: Logger; intervalMs: number }) {
    const { revocations, logger } = deps;
    super({
      ...deps,
      failure: 'pruning token revocations failed',
      pass: async () => {
        const deleted = await revocations.prune();
        if (deleted > 0) logger.info('expired token revocations pruned', { deleted });
      },
    });
  }
}
