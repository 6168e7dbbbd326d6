import type { Logger } from '@cloud/logging';
import { RpcUnservedError } from './rpc';

export interface SnapshotLoaderOptions {
  logger: Logger;
  /** What is loaded, for the log: "token revocations". */
  what: string;
  /** Fetches the snapshot and applies it; a rejection is retried. */
  load(): Promise<void>;
}

/**
 * Loads a snapshot from a peer service (over a bus request) until it succeeds, backing off from
 * 250 ms up to 10 s between attempts. A request nobody serves yet (the peer has not started) is
 * asked again at once: the bus already paced its tries, and the peer is used as soon as it
 * serves. A `trigger` while a load runs loads once more after it, so a reconnection during a load
 * is never missed; one while it waits out a failure's backoff tries again at once (the bus that
 * just connected may succeed where the last try failed). Used by every broadcast consumer that
 * must catch up on what it missed while it was away.
 */
export class SnapshotLoader {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private wakeRetry: (() => void) | undefined;

  constructor(private readonly options: SnapshotLoaderOptions) {}

  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      // Waiting out a failure's backoff: what triggered (a reconnection) may let a try succeed now.
      if (this.wakeRetry) this.wakeRetry();
      else this.again = true;
      return;
    }
    this.running = this.loadUntilDone().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.trigger();
      }
    });
  }

  /** Stops retrying; a load in flight finishes, and waiting for it is what this returns. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeRetry?.();
    await this.running;
  }

  private async loadUntilDone(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt += 1) {
      try {
        await this.options.load();
        return;
      } catch (error) {
        if (error instanceof RpcUnservedError) {
          this.options.logger.info(`${this.options.what}: waiting for the service that serves them`, { error });
          attempt = -1;
          continue;
        }
        this.options.logger.warn(`could not load ${this.options.what}; retrying`, { attempt, error });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(250 * 2 ** attempt, 10_000));
          this.wakeRetry = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeRetry = undefined;
      }
    }
  }
}
