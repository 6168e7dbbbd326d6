/** Collects deliveries into batches: a full batch goes at once, a partial one on the next turn of the event loop. One batch is handled at a time. */
export class Batcher<T> {
  private buffer: T[] = [];
  private busy = false;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly size: number,
    private readonly handle: (batch: T[]) => Promise<void>,
  ) {}

  add(item: T): void {
    if (this.stopped) return;
    this.buffer.push(item);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.next();
      });
    }
  }

  /** Drops what is buffered and takes nothing more (its consumer was cancelled; the broker redelivers). */
  stop(): void {
    this.stopped = true;
    this.buffer = [];
  }

  private next(): void {
    if (this.stopped || this.busy || this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, this.size);
    this.busy = true;
    void this.handle(batch)
      .catch(() => undefined)
      .finally(() => {
        this.busy = false;
        this.next();
      });
  }
}
