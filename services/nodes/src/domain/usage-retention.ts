import type { Logger } from '@cloud/logging';
import type { UsageIngest } from './usage-ingest';

/** Runs the usage retention (old buckets and message ids deleted) at start and every interval; every instance may, the deletes agree. */
export class UsageRetentionJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly deps: { ingest: UsageIngest; logger: Logger; intervalMs: number }) {}

  start(): void {
    void this.run();
    this.timer = setInterval(() => void this.run(), this.deps.intervalMs);
    this.timer.unref();
  }

  /** One pass; a pass already under way is waited for instead. */
  run(): Promise<void> {
    return (this.running ??= this.deps.ingest
      .enforceRetention()
      .then((deleted) => {
        this.deps.logger.debug('usage retention applied', deleted);
      })
      .catch((error: unknown) => {
        this.deps.logger.warn('usage retention failed; trying again next interval', { error });
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
