import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

const POLL_MS = 200;
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads what a node process writes to its output file (`node.out`, its stdout and stderr), a line
 * at a time, as it comes. The process writes to the file itself rather than to a pipe of ours, so
 * it outlives the service: a pipe's reader dies with the service, and the node with its next
 * write (EPIPE). The file is emptied whenever everything in it has been read, so it holds only
 * what no supervisor has read yet (a supervisor that adopts the process reads that first) and
 * keeps nothing the node printed at start, such as anvil's keys, for longer than a poll. The
 * process writes in append mode, so after the truncation its writes start at 0 again; a line it
 * writes in the instant between the last read and the truncation is lost (the size is checked
 * just before, so the window is one system call).
 */
export class OutputFollower {
  private offset = 0;
  private partial = '';
  // A character split between two reads is decoded whole.
  private readonly decoder = new StringDecoder('utf8');
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly file: string,
    private readonly onLine: (line: string) => void,
  ) {}

  /** Follows the file from its start. */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Reads what is left (the process has exited); a last line without a newline counts. */
  async drain(): Promise<void> {
    // A poll under way may have looked at the file before the process's last writes: let it end,
    // then read again.
    await this.reading;
    await this.read();
    if (this.partial !== '') this.onLine(this.partial);
    this.partial = '';
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.read().finally(() => this.schedule());
    }, POLL_MS);
  }

  private read(): Promise<void> {
    this.reading ??= this.readOnce().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(this.file, 'r+');
    } catch {
      return; // not made yet, or the node's folder is gone
    }
    try {
      let { size } = await handle.stat();
      if (size < this.offset) this.offset = 0; // emptied by someone else
      while (this.offset < size) {
        const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, size - this.offset));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        this.take(this.decoder.write(buffer.subarray(0, bytesRead)));
        size = (await handle.stat()).size;
      }
      if (this.offset > 0 && (await handle.stat()).size === this.offset) {
        await handle.truncate(0);
        this.offset = 0;
      }
    } finally {
      await handle.close();
    }
  }

  private take(text: string): void {
    const lines = (this.partial + text).split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.onLine(line);
  }
}
