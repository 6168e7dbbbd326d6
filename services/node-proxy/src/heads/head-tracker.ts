import type { Clock } from '@cloud/auth';
import type { Logger } from '@cloud/logging';
import type { Upstreams } from '../forwarding/upstreams';
import type { MemberHealth } from '../pools/member-health';
import type { Route, RouteTable } from '../routing/route-table';
import { isAnswering } from '../server/resolve-node';
import { CHAIN_READERS, nodeRpc, type ChainHead, type ChainReader } from './chain-reads';

export interface Head {
  height: number;
  hash: string;
  /** When it was read (Date.now() ms). */
  readAt: number;
}

/** Told that blocks at `forkHeight` and above are no longer what they were, on a node or a pool (by its id). */
export type ReorgListener = (routeId: string, forkHeight: number) => void;

/**
 * How long one call of a head read may take: a hung member fails its reads (and is benched) within
 * seconds, not at the callers' upstream timeout; a healthy node answers these in milliseconds.
 */
export const HEAD_READ_TIMEOUT_MS = 2_000;

/** Heights below a node's head whose hashes are kept: how deep a reorg is seen, and how far back the fork is looked for. */
export const KEPT_HEIGHTS = 128;

export interface HeadTrackerOptions {
  table: RouteTable;
  upstreams: Upstreams;
  /** Told of each head read of a pool member (the circuit breaker's probe). */
  health: MemberHealth;
  logger: Logger;
  intervalMs: number;
  idleMs: number;
  now: Clock;
}

interface Followed {
  head: Head | undefined;
  /** Height → hash of the node's chain as last seen, the last KEPT_HEIGHTS below its head (with gaps where the head jumped). */
  hashes: Map<number, string>;
  /** When `headOf` last asked for it (pool members are followed whatever it says). */
  usedAt: number;
  reading: boolean;
}

/**
 * The head of every node in use and of every pool member, read every `intervalMs` through the
 * proxy's own connections to the node (its internal login), one read at a time per node. A node
 * is in use for `idleMs` after its route was last passed to `headOf`; a pool's members always are,
 * while the pool exists. Nobody's node is polled otherwise.
 *
 * Reorgs: with each head the tracker keeps recent heights' hashes. When the head's parent is not
 * the hash known one height below, a known height's hash changed, the head went down (bitcoin's
 * `invalidateblock`) or the hash at the last known head changed under a head that jumped, it walks
 * down the known heights reading the node's hashes until one matches: blocks above it changed,
 * and the listeners hear of the fork for the node and for every pool that lists it.
 *
 * Each proxy process (worker) follows on its own: reads cost a node one call per interval per worker.
 */
export class HeadTracker {
  private readonly nodes = new Map<string, Followed>();
  private readonly listeners: ReorgListener[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: HeadTrackerOptions) {
    options.table.onChange((id, route) => {
      if (!route) {
        this.nodes.delete(id);
        options.health.forget(id);
        return;
      }
      // A new or changed pool: its members' heads are read now, so it serves without waiting a tick.
      if (route.pool) for (const member of route.pool.members) this.read(member);
    });
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * A node route's head (and marks the node in use, reading its head now if it was not followed),
   * or for a pool route the best head among its members that may serve. undefined: not known (yet).
   */
  headOf(route: Route): Head | undefined {
    if (route.pool) return this.bestOf(route);
    const followed = this.nodes.get(route.nodeId);
    if (followed) {
      followed.usedAt = this.options.now();
      return followed.head;
    }
    this.read(route.nodeId, true);
    return undefined;
  }

  /** A node's last read head, without marking it in use. */
  known(nodeId: string): Head | undefined {
    return this.nodes.get(nodeId)?.head;
  }

  /**
   * The best head among a pool's members that may take calls: routed as running (not syncing,
   * stopped, …), not benched, head known. The pool's lag is measured from it.
   */
  bestOf(pool: Route): Head | undefined {
    let best: Head | undefined;
    for (const member of pool.pool?.members ?? []) {
      if (!this.mayServe(member)) continue;
      const head = this.nodes.get(member)?.head;
      if (head && (!best || head.height > best.height)) best = head;
    }
    return best;
  }

  /** Whether a member node is running (per its route) and not benched; its head may still be unknown. */
  mayServe(nodeId: string): boolean {
    const route = this.options.table.get(nodeId);
    return route !== undefined && route.state === 'running' && route.upstream !== null && !route.pool && !this.options.health.isBenched(nodeId);
  }

  onReorg(listener: ReorgListener): void {
    this.listeners.push(listener);
  }

  private tick(): void {
    const { table, idleMs, now } = this.options;
    const members = new Set<string>();
    for (const pool of table.pools()) for (const member of pool.pool!.members) members.add(member);
    const idleSince = now() - idleMs;
    for (const [id, followed] of this.nodes) {
      if (members.has(id)) continue;
      if (followed.usedAt < idleSince) this.nodes.delete(id);
      else this.read(id);
    }
    for (const id of members) this.read(id);
  }

  /** Reads a node's head unless a read of it is under way, or it does not answer (stopped, provisioning, a pool). */
  private read(nodeId: string, used = false): void {
    const route = this.options.table.get(nodeId);
    const reader = route && CHAIN_READERS[route.interfaces.family];
    if (!route || !reader || route.pool || !isAnswering(route)) return;
    let followed = this.nodes.get(nodeId);
    if (!followed) this.nodes.set(nodeId, (followed = { head: undefined, hashes: new Map(), usedAt: used ? this.options.now() : 0, reading: false }));
    if (followed.reading) return;
    followed.reading = true;
    const entry = followed;
    void this.follow(route, reader, entry).then((ok) => {
      entry.reading = false;
      if (this.options.table.poolsOf(nodeId).size > 0) this.options.health.headRead(nodeId, ok);
    });
  }

  /** One head read of a node and what follows from it; false when the node did not answer. */
  private async follow(route: Route, reader: ChainReader, followed: Followed): Promise<boolean> {
    const rpc = nodeRpc(this.options.upstreams, route, Math.max(HEAD_READ_TIMEOUT_MS, this.options.intervalMs));
    let forkHeight: number | undefined;
    try {
      const read = await reader.head(rpc);
      const hashAt = (height: number) => reader.hashAt(rpc, height);
      const previous = followed.head;
      forkHeight = await this.forkOf(followed, read, hashAt);
      this.record(followed, read, forkHeight);
      if (previous) await this.fillGap(followed, read.height, hashAt);
    } catch (error) {
      this.options.logger.debug('head read failed', { nodeId: route.nodeId, error });
      return false;
    }
    // Forgotten meanwhile (idle, or gone): nobody is told.
    if (forkHeight !== undefined && this.nodes.get(route.nodeId) === followed) this.tell(route.nodeId, forkHeight);
    return true;
  }

  /**
   * Where the node's chain parted from what was known of it, or undefined when it did not: the
   * lowest height whose block may have changed. Walks down the known heights from the lower of
   * the old and new heads, reading the node's hash at each, until one matches (none: the lowest
   * known height). The hashes the read gives (the head's, its parent's) are not read again.
   */
  private async forkOf(followed: Followed, read: ChainHead, hashAt: (height: number) => Promise<string>): Promise<number | undefined> {
    const { head: previous, hashes } = followed;
    if (!previous) return undefined;
    const given = new Map<number, string>([[read.height, read.hash]]);
    if (read.parentHash !== undefined && read.height > 0) given.set(read.height - 1, read.parentHash);
    const nodeHashAt = async (height: number) => given.get(height) ?? hashAt(height);

    const changed =
      read.height < previous.height ||
      [...given].some(([height, hash]) => hashes.has(height) && hashes.get(height) !== hash) ||
      // Moved up by more than a block: is the block it was on still there?
      (read.height > previous.height + 1 && (await nodeHashAt(previous.height)) !== previous.hash);
    if (!changed) return undefined;
    const heights = [...hashes.keys()].filter((height) => height <= Math.min(read.height, previous.height)).sort((a, b) => b - a);
    for (const height of heights) {
      const hash = await nodeHashAt(height);
      if (hash === hashes.get(height)) return height + 1;
    }
    // Nothing known still holds: the fork is below every height known (a tracker that saw the head
    // jump knows few), and how far below is not known: all of the chain may have changed.
    return 0;
  }

  /** Keeps the new head and its parent's hash, dropping what the fork replaced and what is too far down. */
  private record(followed: Followed, read: ChainHead, forkHeight: number | undefined): void {
    const { hashes } = followed;
    // A head that went down is a fork too: nothing above the fork is the node's any more.
    if (forkHeight !== undefined) for (const height of hashes.keys()) if (height >= forkHeight) hashes.delete(height);
    hashes.set(read.height, read.hash);
    if (read.parentHash !== undefined && read.height > 0) hashes.set(read.height - 1, read.parentHash);
    for (const height of hashes.keys()) if (height < read.height - KEPT_HEIGHTS) hashes.delete(height);
    followed.head = { height: read.height, hash: read.hash, readAt: this.options.now() };
  }

  /**
   * Reads the hashes of the heights a head that moved up by several blocks skipped (down to the
   * first known one, at most KEPT_HEIGHTS), so a later reorg's fork is found where it is, not
   * at the bottom of a gap.
   */
  private async fillGap(followed: Followed, height: number, hashAt: (height: number) => Promise<string>): Promise<void> {
    for (let below = height - 2; below >= 0 && below >= height - KEPT_HEIGHTS && !followed.hashes.has(below); below -= 1) {
      followed.hashes.set(below, await hashAt(below));
    }
  }

  private tell(nodeId: string, forkHeight: number): void {
    this.options.logger.info('reorg seen', { nodeId, forkHeight });
    const ids = [nodeId, ...this.options.table.poolsOf(nodeId)];
    for (const id of ids) {
      for (const listener of this.listeners) {
        try {
          listener(id, forkHeight);
        } catch (error) {
          this.options.logger.error('a reorg listener failed', { id, error });
        }
      }
    }
  }
}
