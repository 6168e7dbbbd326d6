import type { Logger } from '@cloud/logging';
import { runOutsideRequestContext } from '@cloud/logging';
import type { LeasesRepository } from '../data-access/leases.repository';
import { isFollowable, type FollowTarget, type NodeRoutes } from './node-routes';
import type { StreamRecord } from './stream';

/** What the worker needs of the scanner (domain/scanner.ts). */
export interface Scanning {
  scan(stream: StreamRecord, target: FollowTarget): Promise<{ stream: StreamRecord; appended: number; caughtUp: boolean }>;
}

/** What the worker needs of delivery (domain/delivery.ts). */
export interface Delivering {
  deliverDue(stream: StreamRecord): Promise<{ stream: StreamRecord; delivered: number }>;
}

/** Tells the worker that a stream changed outside it (paused, resumed, a new URL or secret, dead letters replayed). */
export interface StreamWaker {
  refresh(streamId: string): void;
}

export interface StreamWorkerOptions {
  leases: LeasesRepository;
  routes: NodeRoutes;
  scanner: Scanning;
  delivery: Delivering;
  /** Deletes delivered events older than the date (dead letters stay). */
  pruneDelivered(before: Date): Promise<unknown>;
  instanceId: string;
  leaseMs: number;
  /** How often each owned stream is looked at: its node's head read (shared by the streams on it), due deliveries. */
  tickMs: number;
  keepDeliveredMs: number;
  logger: Logger;
  now?: () => Date;
}

interface Owned {
  stream: StreamRecord;
  /** A step is under way: the next waits for it. */
  running: boolean;
  /** Another step is wanted as soon as this one ends (scanning is behind, or something changed). */
  again: boolean;
  /** When the last "cannot read the node" was logged, so a stopped node is not logged every tick. */
  warnedAt: number;
}

/** Most streams stepped at once by one replica. */
const CONCURRENT_STEPS = 16;
const WARN_EVERY_MS = 60_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * Runs this replica's streams: claims the leases of active streams (renewing them every fifth of
 * the lease), and for each stream it holds, every tick, scans what its node added since its cursor
 * and delivers what is pending and due, one stream at a time per stream (never two steps of one
 * stream at once) and in stream order. Everything it does is committed by the scanner and the
 * delivery before it moves on, so a replica that dies loses nothing: another claims its streams
 * once their leases run out and goes on from the rows (at-least-once: the batch in flight may be
 * sent again, with the same event ids).
 */
export class StreamWorker implements StreamWaker {
  private readonly owned = new Map<string, Owned>();
  private readonly now: () => Date;
  private tickTimer: NodeJS.Timeout | undefined;
  private claimTimer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private readonly steps = new Set<Promise<void>>();
  private stopped = true;
  private prunedAt = 0;

  constructor(private readonly options: StreamWorkerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.claim();
    this.claimTimer = setInterval(() => void this.claim(), Math.max(200, Math.floor(this.options.leaseMs / 5)));
    this.tickTimer = setInterval(() => this.tick(), this.options.tickMs);
  }

  /** Reads the stream again now (and takes it, if it became active), rather than at the next lease renewal. */
  refresh(streamId: string): void {
    const owned = this.owned.get(streamId);
    if (owned) owned.again = true;
    void this.claim();
  }

  /** The streams this replica holds now (for tests and metrics). */
  get streamIds(): string[] {
    return [...this.owned.keys()];
  }

  /** Stops stepping, waits for the steps under way, and gives the leases up for another replica. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.tickTimer);
    clearInterval(this.claimTimer);
    await this.claiming;
    await Promise.all([...this.steps]);
    this.owned.clear();
    await this.options.leases
      .release(this.options.instanceId)
      .catch((error: unknown) => this.options.logger.warn('could not give up stream leases', { error }));
  }

  private claim(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // One claim at a time; a refresh during one is served by the next renewal.
    this.claiming ??= runOutsideRequestContext(async () => {
      try {
        const now = this.now();
        const held = await this.options.leases.claim(this.options.instanceId, now, new Date(now.getTime() + this.options.leaseMs));
        const ids = new Set(held.map((stream) => stream.id));
        for (const id of this.owned.keys()) if (!ids.has(id)) this.owned.delete(id);
        for (const stream of held) {
          const owned = this.owned.get(stream.id);
          // A step under way returns a newer record of what it changed; the row's other fields
          // (state, URL, secret) come with the next renewal. A stale cursor is harmless: the
          // scanner's fencing refuses it and returns the row as it is.
          if (!owned) this.owned.set(stream.id, { stream, running: false, again: true, warnedAt: 0 });
          else if (!owned.running) owned.stream = stream;
        }
        await this.pruneNow(now);
      } catch (error) {
        this.options.logger.warn('could not claim streams; trying again', { error });
      } finally {
        this.claiming = undefined;
      }
    });
    return this.claiming;
  }

  private tick(): void {
    if (this.stopped) return;
    for (const [id, owned] of this.owned) {
      if (owned.running) continue;
      if (this.steps.size >= CONCURRENT_STEPS) break;
      this.step(id, owned);
    }
  }

  private step(id: string, owned: Owned): void {
    owned.running = true;
    owned.again = false;
    const step = runOutsideRequestContext(async () => {
      try {
        await this.scanAndDeliver(owned);
      } catch (error) {
        this.options.logger.error('stream step failed', { streamId: id, error });
      } finally {
        owned.running = false;
        this.steps.delete(step);
        // Behind its node, or woken meanwhile: go on at once rather than wait a tick.
        if (owned.again && !this.stopped && this.owned.get(id) === owned) this.step(id, owned);
      }
    });
    this.steps.add(step);
  }

  private async scanAndDeliver(owned: Owned): Promise<void> {
    const target = this.options.routes.followTarget(owned.stream.nodeId);
    if (isFollowable(target)) {
      try {
        const scanned = await this.options.scanner.scan(owned.stream, target);
        owned.stream = scanned.stream;
        if (!scanned.caughtUp) owned.again = true;
      } catch (error) {
        this.warn(owned, "cannot read the stream's node; trying again", { nodeId: target.nodeId, error });
      }
    } else {
      this.warn(owned, "the stream's node cannot be read now", { reason: target.reason });
    }
    // Pending events are delivered whatever the node does (a stopped node's stream still empties).
    for (;;) {
      const stream = owned.stream;
      const due = stream.nextAttemptAt === null || stream.nextAttemptAt.getTime() <= this.now().getTime();
      if (this.stopped || !due || stream.deliveredSeq >= stream.nextSeq - 1) return;
      const delivered = await this.options.delivery.deliverDue(stream);
      owned.stream = delivered.stream;
      if (delivered.delivered === 0) return;
    }
  }

  private warn(owned: Owned, message: string, meta: Record<string, unknown>): void {
    const now = Date.now();
    if (now - owned.warnedAt < WARN_EVERY_MS) return;
    owned.warnedAt = now;
    this.options.logger.warn(message, { streamId: owned.stream.id, ...meta });
  }

  private async pruneNow(now: Date): Promise<void> {
    if (now.getTime() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now.getTime();
    await this.options.pruneDelivered(new Date(now.getTime() - this.options.keepDeliveredMs));
  }
}
