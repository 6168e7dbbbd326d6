import type { Logger } from '@cloud/logging';
import type { NodeRpc } from '../data-access/node-rpc.client';
import type { ScanRepository, TrackedOutput } from '../data-access/scan.repository';
import { CHAIN_READERS, type BlockReadOptions, type ChainBlock, type ChainReader } from './chain-readers';
import type { HeadWatcher } from './head-watcher';
import { matchBitcoin, matchEthereum, outpointKey, type UnsavedEvent } from './matching';
import type { FollowTarget } from './node-routes';
import type { BlockRef, StreamRecord } from './stream';

export interface StreamScannerDeps {
  repository: ScanRepository;
  rpcFor(target: FollowTarget): NodeRpc;
  heads: HeadWatcher;
  now?: () => Date;
  /** Most blocks one scan reads before it commits. */
  scanBlocks: number;
  logger: Logger;
}

export interface ScanResult {
  /** The stream as its row now is (the one given when nothing was committed and nothing changed). */
  stream: StreamRecord;
  /** Events appended by this scan. */
  appended: number;
  /** Whether the stream's cursor is at the node's head as read (or the node is below it): no need to scan again at once. */
  caughtUp: boolean;
}

/** Where the node's chain left the stream's: blocks above `height` were replaced. */
interface Fork {
  height: number;
  /** The node's hash at `height`, which the first new block's parent must be; null when the fork lies below the kept blocks. */
  hash: string | null;
  dropped: BlockRef[];
}

const refOf = (block: BlockRef): BlockRef => ({ height: block.height, hash: block.hash });

/**
 * Finds a stream's events on its node's chain and commits them with the stream's new cursor in
 * one transaction (ScanRepository.commitScan): whichever replica scans resumes from the row.
 *
 * A scan reads the node's head; at the cursor it is done, without touching the database. Below
 * the cursor (a pool's member behind, or a chain cut back and not grown again yet) it waits: a
 * replaced chain is reported once the node's chain reaches the cursor's height. Otherwise it reads
 * up to `scanBlocks` blocks after the cursor. When the node's block at the cursor's height is not
 * the cursor (the next block's parent, or the head at that height), it walks down the kept
 * blocks (stream_blocks) reading the node's hashes until one matches: ONE `reorg` event names the
 * blocks dropped above it and the node's blocks read in their place, whose events follow.
 *
 * The first scan starts at `fromHeight`, or at the head (whose block is the first event).
 */
export class StreamScanner {
  private readonly now: () => Date;

  constructor(private readonly deps: StreamScannerDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async scan(stream: StreamRecord, target: FollowTarget): Promise<ScanResult> {
    const unchanged = (caughtUp: boolean): ScanResult => ({ stream, appended: 0, caughtUp });
    const head = await this.deps.heads.headOf(target);
    const cursor = stream.cursor;
    if (cursor && (cursor.hash === head.hash || head.height < cursor.height)) return unchanged(true);
    const start = cursor ? cursor.height + 1 : (stream.fromHeight ?? head.height);
    if (start > head.height && !cursor) return unchanged(true);

    const reader = CHAIN_READERS[target.family];
    const blocks = new BlockReads(reader, this.deps.rpcFor(target), readOptionsOf(stream, target));
    let fork: Fork | null = null;
    if (cursor) {
      const nodeHashAtCursor = head.height > cursor.height ? (await blocks.at(start)).parentHash : head.hash;
      if (nodeHashAtCursor !== cursor.hash) fork = await this.forkOf(stream, cursor, nodeHashAtCursor, blocks);
    }

    const from = fork ? fork.height + 1 : start;
    const last = Math.min(head.height, from + this.deps.scanBlocks - 1);
    const read: ChainBlock[] = [];
    let parent = fork ? fork.hash : (cursor?.hash ?? null);
    for (let height = from; height <= last; height += 1) {
      const block = await blocks.at(height);
      // The chain changed under this scan: commit what chains on, the next scan sees the rest.
      if (parent !== null && block.parentHash !== parent) break;
      read.push(block);
      parent = block.hash;
    }
    if (read.length === 0) return unchanged(false);

    const { events, outputs } = await this.eventsOf(stream, read, fork);
    const lastRead = read[read.length - 1]!;
    const result = await this.deps.repository.commitScan({
      streamId: stream.id,
      expectedCursor: cursor,
      cursor: refOf(lastRead),
      forkHeight: fork?.height ?? null,
      events: events.map((body) => ({ type: body.type, height: 'height' in body ? body.height : body.forkHeight, body })),
      blocks: read.map(refOf),
      outputs,
      at: this.now(),
    });
    if (!result.committed) {
      this.deps.logger.info('stream scan superseded: its cursor moved meanwhile', { streamId: stream.id });
      return { stream: result.stream, appended: 0, caughtUp: false };
    }
    if (fork)
      this.deps.logger.info('stream saw a reorg', { streamId: stream.id, nodeId: target.nodeId, forkHeight: fork.height, dropped: fork.dropped.length });
    return { stream: result.stream, appended: events.length, caughtUp: lastRead.height >= head.height };
  }

  /**
   * Walks down the kept blocks, highest first, until the node has the same hash at one: the fork.
   * None matching (the fork is deeper than the blocks kept): the fork is taken below the lowest kept.
   */
  private async forkOf(stream: StreamRecord, cursor: BlockRef, nodeHashAtCursor: string | null, blocks: BlockReads): Promise<Fork> {
    const kept = (await this.deps.repository.recentBlocks(stream.id)).filter((block) => block.height <= cursor.height);
    if (kept.length === 0 || kept[0]!.height !== cursor.height) kept.unshift(refOf(cursor));
    for (const [index, block] of kept.entries()) {
      const nodeHash = block.height === cursor.height ? nodeHashAtCursor : await blocks.hashAt(block.height);
      if (nodeHash === block.hash) return { height: block.height, hash: block.hash, dropped: kept.slice(0, index).reverse().map(refOf) };
    }
    const lowest = kept[kept.length - 1]!;
    return { height: lowest.height - 1, hash: null, dropped: [...kept].reverse().map(refOf) };
  }

  /** The events of the blocks read (after the reorg event, when there is one), and the new outputs to track. */
  private async eventsOf(stream: StreamRecord, read: ChainBlock[], fork: Fork | null): Promise<{ events: UnsavedEvent[]; outputs: TrackedOutput[] }> {
    const events: UnsavedEvent[] = [];
    if (fork) events.push({ type: 'reorg', forkHeight: fork.height, dropped: fork.dropped, added: read.map(refOf) });
    if (stream.kind === 'blocks') {
      for (const block of read) {
        const { height, hash, parentHash, time, transactionCount } = block;
        events.push({ type: 'block', height, hash, parentHash, time, transactions: transactionCount });
      }
      return { events, outputs: [] };
    }
    const tracked = await this.trackedOutputs(stream, read, fork);
    const outputs: TrackedOutput[] = [];
    for (const block of read) {
      const place = { height: block.height, blockHash: block.hash };
      const content = block.content!;
      if (content.family === 'ethereum') {
        events.push(...matchEthereum(place, content, stream.addresses, stream.topics));
        continue;
      }
      const matched = matchBitcoin(place, content.transactions, stream.addresses, tracked);
      events.push(...matched.events);
      for (const output of matched.outputs) tracked.set(outpointKey(output.txid, output.vout), output);
      outputs.push(...matched.outputs);
    }
    return { events, outputs };
  }

  /** Bitcoin family: the stream's tracked outputs that the blocks' inputs may spend (none above a fork: those are gone). */
  private async trackedOutputs(stream: StreamRecord, read: ChainBlock[], fork: Fork | null): Promise<Map<string, TrackedOutput>> {
    const tracked = new Map<string, TrackedOutput>();
    const txids = read.flatMap((block) =>
      block.content?.family === 'bitcoin' ? block.content.transactions.flatMap((tx) => tx.inputs.map((input) => input.txid)) : [],
    );
    if (txids.length === 0) return tracked;
    for (const output of await this.deps.repository.watchedOutputs(stream.id, txids)) {
      if (fork === null || output.height <= fork.height) tracked.set(outpointKey(output.txid, output.vout), output);
    }
    return tracked;
  }
}

function readOptionsOf(stream: StreamRecord, target: FollowTarget): BlockReadOptions {
  if (stream.kind === 'blocks') return { transactions: false };
  return target.family === 'ethereum' ? { transactions: true, logAddresses: stream.addresses, topics: stream.topics } : { transactions: true };
}

/** The node's blocks and hashes as one scan reads them, each at most once. */
class BlockReads {
  private readonly blocks = new Map<number, Promise<ChainBlock>>();

  constructor(
    private readonly reader: ChainReader,
    private readonly rpc: NodeRpc,
    private readonly options: BlockReadOptions,
  ) {}

  at(height: number): Promise<ChainBlock> {
    let block = this.blocks.get(height);
    if (!block) this.blocks.set(height, (block = this.reader.block(this.rpc, height, this.options)));
    return block;
  }

  hashAt(height: number): Promise<string | null> {
    return this.reader.hashAt(this.rpc, height);
  }
}
