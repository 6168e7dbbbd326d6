import { SnapshotLoader, type Bus, type NodeRoute } from '@cloud/bus';
import type { Logger } from '@cloud/logging';
import type { RouteTable } from './route-table';

const ROUTE_KINDS = ['node.created', 'node.running', 'node.failed', 'node.credentials-changed', 'node.deleting', 'node.deleted'] as const;

export interface RouteSyncOptions {
  bus: Bus;
  table: RouteTable;
  logger: Logger;
  /** A full reload this often, on top of the one at every (re)connection, to heal anything missed. */
  resyncIntervalMs: number;
  /** How long one page request to the nodes service may take. */
  pageTimeoutMs?: number;
}

/**
 * Keeps the routing table in step with the nodes service, with no database of its own: the
 * `node.*` broadcasts apply as they come, and a full snapshot (the `nodes.routes` request, page
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
      name: 'node-proxy.routes',
      bindings: ROUTE_KINDS,
      batchSize: 100,
      handle: async (messages) => {
        for (const message of messages) if (message.kind.startsWith('node.')) this.apply(message.payload as NodeRoute);
      },
      onSubscribed: () => this.loader.trigger(),
    });
    this.timer = setInterval(() => this.loader.trigger(), this.options.resyncIntervalMs);
    this.timer.unref();
  }

  /** The readiness probe: not ready before the first snapshot, nor while the bus is down. */
  checkReady(): void {
    if (!this.loadedOnce) throw new Error('the routing table is not loaded yet');
    this.options.bus.checkReady();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.loader.stop();
  }

  private apply(route: NodeRoute): void {
    this.options.table.apply(route);
    this.arrivedDuringLoad?.push(route);
  }

  private async load(): Promise<void> {
    this.arrivedDuringLoad = [];
    try {
      const routes: NodeRoute[] = [];
      let after: string | undefined;
      do {
        const page = await this.options.bus.request('nodes.routes', { ...(after ? { after } : {}), limit: 1000 }, this.options.pageTimeoutMs ?? 10_000);
        routes.push(...page.routes);
        after = page.next ?? undefined;
      } while (after);
      this.options.table.replaceAll(routes);
      for (const route of this.arrivedDuringLoad) this.options.table.apply(route);
      if (!this.loadedOnce) this.options.logger.info('routing table loaded', { nodes: this.options.table.size });
      this.loadedOnce = true;
    } finally {
      this.arrivedDuringLoad = undefined;
    }
  }
}
