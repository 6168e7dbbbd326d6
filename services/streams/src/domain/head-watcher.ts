import type { NodeRpc } from '../data-access/node-rpc.client';
import { CHAIN_READERS } from './chain-readers';
import type { FollowTarget } from './node-routes';
import type { BlockRef } from './stream';

interface Watched {
  head: BlockRef | undefined;
  /** performance.now() of the read that gave `head`. */
  readAt: number;
  reading: Promise<BlockRef> | undefined;
}

/** Nodes not asked about this long are forgotten. */
const FORGET_AFTER_MS = 60_000;

/**
 * The head of each followed node, read at most once per `maxAgeMs` however many streams follow
 * it: callers within that age get the last read, and callers while a read is under way share it
 * (its failure too; the next caller reads again). Keyed by node and upstream, so a node moved
 * elsewhere is read afresh.
 */
export class HeadWatcher {
  private readonly watched = new Map<string, Watched>();
  private sweptAt = performance.now();

  constructor(private readonly options: { rpcFor(target: FollowTarget): NodeRpc; maxAgeMs: number }) {}

  headOf(target: FollowTarget): Promise<BlockRef> {
    const now = performance.now();
    this.sweep(now);
    const key = `${target.nodeId} ${target.upstream}`;
    let entry = this.watched.get(key);
    if (!entry) this.watched.set(key, (entry = { head: undefined, readAt: 0, reading: undefined }));
    if (entry.head && now - entry.readAt < this.options.maxAgeMs) return Promise.resolve(entry.head);
    if (entry.reading) return entry.reading;
    const watched = entry;
    const reading = CHAIN_READERS[target.family].head(this.options.rpcFor(target)).then(
      (head) => {
        watched.head = head;
        watched.readAt = performance.now();
        watched.reading = undefined;
        return head;
      },
      (error: unknown) => {
        watched.reading = undefined;
        throw error;
      },
    );
    watched.reading = reading;
    return reading;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < FORGET_AFTER_MS) return;
    this.sweptAt = now;
    for (const [key, entry] of this.watched) if (!entry.reading && now - entry.readAt > FORGET_AFTER_MS) this.watched.delete(key);
  }
}
