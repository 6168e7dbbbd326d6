import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainEntry } from './chain';

function decodeLine(line: string): Buffer | undefined {
  try {
    const hex = (JSON.parse(line) as { hex?: unknown }).hex;
    return typeof hex === 'string' && /^([0-9a-f]{2})+$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  } catch {
    return undefined;
  }
}

/** What a datadir keeps for regtest, like bitcoind's `<datadir>/regtest/`. */
export function regtestDir(datadir: string): string {
  return join(datadir, 'regtest');
}

/**
 * `<datadir>/regtest/blocks.jsonl`: one JSON line per block (`{height, hash, hex}`), from the genesis
 * block up, appended as each is mined. Each line goes out in one synchronous write, so a block the
 * RPC reported is in the file; a crash can still leave the last line cut short, and loading drops
 * such a line and truncates the file to the last whole one so that appends start on a fresh line.
 */
export class BlockStore {
  private constructor(
    readonly path: string,
    private readonly fd: number,
    private size: number,
  ) {}

  /** Opens (creating if need be) the store and reads the serialized blocks it holds. */
  static open(datadir: string): { store: BlockStore; blocks: Buffer[]; droppedPartialLine: boolean } {
    const dir = regtestDir(datadir);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'blocks.jsonl');
    const content = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
    const size = content.lastIndexOf('\n') + 1;
    const blocks =
      size === 0
        ? []
        : content
            .subarray(0, size - 1)
            .toString('utf8')
            .split('\n')
            .map((line, index) => {
              const raw = decodeLine(line);
              if (!raw) throw new Error(`${path}:${index + 1}: not a stored block`);
              return raw;
            });
    const droppedPartialLine = size < content.length;
    if (droppedPartialLine) truncateSync(path, size);
    return { store: new BlockStore(path, openSync(path, 'a'), size), blocks, droppedPartialLine };
  }

  get sizeOnDisk(): number {
    return this.size;
  }

  append(entry: ChainEntry): void {
    const line = `${JSON.stringify({ height: entry.height, hash: entry.hash, hex: entry.raw.toString('hex') })}\n`;
    this.size += writeSync(this.fd, line);
  }

  close(): void {
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}
