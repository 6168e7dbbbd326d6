import type { Logger } from '@cloud/logging';

export interface PeriodicJobOptions {
  /** One pass; it logs its own result. */
  pass: () => Promise<void>;
  intervalMs: number;
  logger: Logger;
  /** What a failed pass is logged as (a warning), e.g. `usage retention failed`. */
  failure: string;
}

/**
 * Work a service repeats at start and every interval (the retention of old rows), where every
 * replica may run it because the passes agree. A failed pass is logged and tried again next
 * interval; the timer never keeps the process alive.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: PeriodicJobOptions) {}

  start(): void {
    void this.run();
    this.timer = setInterval(() => void this.run(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One pass; a pass already under way is waited for instead. */
  run(): Promise<void> {
    return (this.running ??= this.options
      .pass()
      .catch((error: unknown) => {
        this.options.logger.warn(`${this.options.failure}; trying again next interval`, { error });
      })
      .finally(() => {
        this.running = undefined;
      }));
  }

  /** No more passes; resolves once the one under way has finished. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
