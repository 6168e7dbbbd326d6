import type { Logger } from '@cloud/logging';
import type { Revocations } from './revocations';

/**
 * Deletes the revocations no token they could kill outlives, at start and every interval, so the
 * table (and the snapshot every starting service reads) holds about one token lifetime of them
 * however long the platform runs. Every replica may run it: the deletes agree.
 */
export class RevocationRetentionJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: { revocations: Revocations; logger: Logger; intervalMs: number }) {}

  start(): void {
    void this.run();
    this.timer = setInterval(() => void this.run(), this.deps.intervalMs);
    this.timer.unref();
  }

  /** One pass; a pass already under way is waited for instead. */
  run(): Promise<void> {
    return (this.running ??= this.deps.revocations
      .prune()
      .then((deleted) => {
        if (deleted > 0) this.deps.logger.info('expired token revocations pruned', { deleted });
      })
      .catch((error: unknown) => {
        this.deps.logger.warn('pruning token revocations failed; trying again next interval', { error });
      })
      .finally(() => {
        this.running = undefined;
      }));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
