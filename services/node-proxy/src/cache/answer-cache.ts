import { LRUCache } from 'lru-cache';

/** A kept answer: its `result` JSON as the node wrote it, and the block it belongs to (none: it never changes). */
export interface CachedAnswer {
  endpoint: string;
  result: string;
  height: number | undefined;
  /** Where the result's top-level `confirmations` number is (Bitcoin), rewritten from the head when served. */
  confirmations?: { start: number; end: number };
}

/** What the cache reports to the metrics as it goes. */
export interface AnswerCacheEvents {
  evicted(count: number): void;
  reorgDropped(count: number): void;
}

/** Bytes an entry is charged beyond its key and result: the entry, the index's set slot, the LRU's slots. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * The proxy's answers that cannot change, bounded in bytes (least recently used out first) and
 * dropped by reorg: a per-endpoint index of keys by block height lets a reorg at `forkHeight` drop
 * that endpoint's entries at and above it without walking the rest of the cache.
 *
 * The LRU is lru-cache's (`maxSize` + `sizeCalculation`); strings are charged a byte a character
 * (what V8 holds for the ASCII JSON nodes write).
 */
export class AnswerCache {
  private readonly lru: LRUCache<string, CachedAnswer>;
  /** endpoint → height → keys at that height. Entries without a height are not indexed: no reorg changes them. */
  private readonly byHeight = new Map<string, Map<number, Set<string>>>();

  constructor(
    maxBytes: number,
    private readonly events: AnswerCacheEvents = { evicted: () => undefined, reorgDropped: () => undefined },
  ) {
    this.lru = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => key.length + answer.result.length + ENTRY_OVERHEAD_BYTES,
      dispose: (answer, key, reason) => {
        this.unindex(key, answer);
        if (reason === 'evict') this.events.evicted(1);
      },
    });
  }

  get(key: string): CachedAnswer | undefined {
    return this.lru.get(key);
  }

  /** Keeps an answer (one larger than the whole bound is not kept). */
  set(key: string, answer: CachedAnswer): void {
    this.lru.set(key, answer);
    if (answer.height === undefined || !this.lru.has(key)) return;
    let heights = this.byHeight.get(answer.endpoint);
    if (!heights) this.byHeight.set(answer.endpoint, (heights = new Map()));
    let keys = heights.get(answer.height);
    if (!keys) heights.set(answer.height, (keys = new Set()));
    keys.add(key);
  }

  /** Drops every answer of `endpoint` at `forkHeight` or above; how many. */
  dropFrom(endpoint: string, forkHeight: number): number {
    const heights = this.byHeight.get(endpoint);
    if (!heights) return 0;
    const doomed: string[] = [];
    for (const [height, keys] of heights) if (height >= forkHeight) doomed.push(...keys);
    // Each delete unindexes its key (dispose), emptying the sets and heights walked above.
    for (const key of doomed) this.lru.delete(key);
    if (doomed.length > 0) this.events.reorgDropped(doomed.length);
    return doomed.length;
  }

  /** Bytes held, as charged. */
  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get entries(): number {
    return this.lru.size;
  }

  private unindex(key: string, answer: CachedAnswer): void {
    if (answer.height === undefined) return;
    const heights = this.byHeight.get(answer.endpoint);
    const keys = heights?.get(answer.height);
    if (!heights || !keys) return;
    keys.delete(key);
    if (keys.size > 0) return;
    heights.delete(answer.height);
    if (heights.size === 0) this.byHeight.delete(answer.endpoint);
  }
}
