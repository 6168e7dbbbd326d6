import { runOutsideRequestContext } from '@cloud/logging';

/**
 * Background work that runs at once when woken, and otherwise `delayMs()` after its last run.
 * Runs never overlap: a wake during a run makes one more run right after it. Runs happen outside
 * any request's context, so their log lines don't carry the id of the request that woke them.
 * `run` must handle its own errors.
 */
export class WakeableTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly delayMs: () => number,
  ) {}

  start(): void {
    this.stopped = false;
    this.wake();
  }

  /** Runs now, or right after the run under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = runOutsideRequestContext(() => this.run()).finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.delayMs());
      }
    });
  }

  /** No more runs; resolves once the run under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
