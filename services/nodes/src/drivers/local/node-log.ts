import { closeSync, fchmodSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

const TAIL_BLOCK_BYTES = 64 * 1024;
// The owner only: a log of an earlier version, made 0644, is closed at its next write.
const LOG_MODE = 0o600;

/**
 * A node's output, appended to `node.log`; beyond `maxBytes` the file becomes `node.log.1` (replacing
 * the one before) and a new one begins. Writes are synchronous: chunks are small, and rotation then
 * never races a write. What it is given is already redacted (`log-redaction.ts`).
 */
export class NodeLog {
  private fd: number | undefined;
  private size = 0;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {}

  write(text: string): void {
    const bytes = Buffer.from(text);
    if (this.fd === undefined) {
      this.fd = openPrivate(this.file);
      this.size = fstatSync(this.fd).size;
    }
    if (this.size > 0 && this.size + bytes.length > this.maxBytes) {
      this.close();
      renameSync(this.file, `${this.file}.1`);
      this.fd = openPrivate(this.file);
      this.size = 0;
    }
    writeSync(this.fd, bytes);
    this.size += bytes.length;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function openPrivate(file: string): number {
  const fd = openSync(file, 'a', LOG_MODE);
  fchmodSync(fd, LOG_MODE);
  return fd;
}

/** The last `count` lines of a rotated log, oldest first: from `file`, then `file.1` when short. */
export async function tailLog(file: string, count: number): Promise<string[]> {
  const lines = await tailFile(file, count);
  if (lines.length >= count) return lines;
  return [...(await tailFile(`${file}.1`, count - lines.length)), ...lines];
}

/** Reads backwards from the end, a block at a time, until it has `count` whole lines. */
async function tailFile(file: string, count: number): Promise<string[]> {
  if (count <= 0) return [];
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const blocks: Buffer[] = [];
    let position = (await handle.stat()).size;
    let newlines = 0;
    // count + 1 newlines: the last one may end the file, and the first one bounds a partial line.
    while (position > 0 && newlines <= count) {
      const length = Math.min(TAIL_BLOCK_BYTES, position);
      position -= length;
      const block = Buffer.alloc(length);
      await handle.read(block, 0, length, position);
      blocks.unshift(block);
      for (const byte of block) if (byte === 0x0a) newlines += 1;
    }
    const lines = Buffer.concat(blocks).toString('utf8').split(/\r?\n/);
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-count);
  } finally {
    await handle.close();
  }
}
