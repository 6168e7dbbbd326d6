import type { Logger } from '@cloud/logging';
import { PeriodicJob } from '@cloud/service-shell';
import type { UsageIngest } from './usage-ingest';

/** Runs the usage retention (old buckets and message ids deleted) at start and every interval; every instance may, the deletes agree. */
export class UsageRetentionJob extends PeriodicJob {
  constructor(deps: { ingest: UsageIngest; logger: Logger; intervalMs: number }) {
    super({
      ...deps,
      failure: 'usage retention failed',
      pass: async () => {
        deps.logger.debug('usage retention applied', await deps.ingest.enforceRetention());
      },
    });
  }
}
