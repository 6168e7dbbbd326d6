import type { Logger } from '@cloud/logging';
import type { Bus } from './bus';
import type { NodeRoute } from './messages';
import { SnapshotLoader } from './snapshot-loader';

/** What a route sync keeps in step: a table of routes that applies a route only when its revision is newer. */
export interface RouteTableLike {
  apply(route: NodeRoute): void;
  /** Forgets every route whose id is not in `present` (a full snapshot was read). */
  removeAllBut(present: ReadonlySet<string>): void;
  readonly size: number;
}

const ROUTE_KINDS = [
  'node.created',
  'node.syncing',
  'node.running',
  'node.failed',
  'node.credentials-changed',
  'node.access-changed',
  'node.stopping',
  'node.stopped',
  'node.starting',
  'node.deleting',
  'node.deleted',
  // A pool is a route of its own (issue 31): its credentials, rules and members.
  'pool.changed',
  'pool.deleted',
] as const;

/** Routes per `nodes.routes` request: the most the nodes service answers at once. */
const PAGE_SIZE = 1000;

export interface RouteSyncOptions {
  bus: Bus;
  table: RouteTableLike;
  /** Names the broadcast subscription (and its dead-letter queue): `node-proxy.routes`, `streams.routes`. */
  name: string;
  logger: Logger;
  /** A full reload this often, on top of the one at every (re)connection, to heal anything missed. */
  resyncIntervalMs: number;
  /** How long one page request to the nodes service may take. */
  pageTimeoutMs?: number;
}

/**
 * Keeps a routing table in step with the nodes service, with no database of its own: the
 * `node.*` and `pool.*` broadcasts apply as they come, and a full snapshot (the `nodes.routes` request, page
 * by page) replaces the table at every (re)connection of the bus and periodically. Messages that
 * arrive while a snapshot is read are applied again after it, so neither can undo the other.
 */
export class RouteSync {
  private loadedOnce = false;
  private arrivedDuringLoad: NodeRoute[] | undefined;
  private readonly loader: SnapshotLoader;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RouteSyncOptions) {
    this.loader = new SnapshotLoader({ logger: options.logger, what: 'node routes', load: () => this.load() });
  }

  /** True once a full snapshot is in: until then an unknown node may just not be loaded yet. */
  get loaded(): boolean {
    return this.loadedOnce;
  }

  async start(): Promise<void> {
    await this.options.bus.subscribe({
      name: this.options.name,
      bindings: ROUTE_KINDS,
      batchSize: 100,
      handle: async (messages) => {
        for (const message of messages) if (message.kind.startsWith('node.') || message.kind.startsWith('pool.')) this.apply(message.payload as NodeRoute);
      },
      onSubscribed: () => this.loader.trigger(),
    });
    this.timer = setInterval(() => this.loader.trigger(), this.options.resyncIntervalMs);
    this.timer.unref();
  }

  /**
   * The readiness probe: not ready before the first snapshot. A table once loaded keeps serving
   * while the bus is down (decision 020): it misses changes until the reload on reconnection.
   */
  checkReady(): void {
    if (!this.loadedOnce) throw new Error('the routing table is not loaded yet');
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.loader.stop();
  }

  private apply(route: NodeRoute): void {
    this.options.table.apply(route);
    this.arrivedDuringLoad?.push(route);
  }

  /**
   * Applies each page as it comes, so no more than a page of the snapshot is held at once and a
   * node already loaded is served before the last page is in.
   */
  private async load(): Promise<void> {
    this.arrivedDuringLoad = [];
    try {
      const present = new Set<string>();
      let after: string | undefined;
      do {
        const page = await this.options.bus.request('nodes.routes', { ...(after ? { after } : {}), limit: PAGE_SIZE }, this.options.pageTimeoutMs ?? 10_000);
        for (const route of page.routes) {
          this.options.table.apply(route);
          present.add(route.nodeId);
        }
        after = page.next ?? undefined;
      } while (after);
      this.options.table.removeAllBut(present);
      for (const route of this.arrivedDuringLoad) this.options.table.apply(route);
      if (!this.loadedOnce) this.options.logger.info('routing table loaded', { nodes: this.options.table.size });
      this.loadedOnce = true;
    } finally {
      this.arrivedDuringLoad = undefined;
    }
  }
}
