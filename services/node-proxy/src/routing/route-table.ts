import type { NodeRoute } from '@cloud/bus';
import { interfacesOf, type ImageInterfaces } from './interfaces';

/** A node as the proxy serves it: its route and what follows from it. */
export interface Route extends NodeRoute {
  interfaces: ImageInterfaces;
  /** Takes its owner's client access token (Bearer) instead of Basic credentials: a route without `basic`. */
  jwt: boolean;
  /** The SHA-256 of the Basic password, as bytes for a constant-time comparison. */
  passwordSha256: Buffer | null;
}

type ChangeListener = (nodeId: string, route: Route | undefined) => void;

/** A deleted node's last revision is remembered this long, so a late older message cannot bring it back. */
const TOMBSTONE_MS = 10 * 60_000;

/**
 * Every node the proxy can route to, by id and by Basic user name, built from `node.*` messages
 * and snapshots. A change applies only if its revision is newer than what the table holds, so
 * messages arriving out of order or twice, and snapshots racing them, leave the newest state.
 */
export class RouteTable {
  private readonly routes = new Map<string, Route>();
  private readonly byUser = new Map<string, string>();
  private readonly tombstones = new Map<string, { revision: number; at: number }>();
  private readonly listeners: ChangeListener[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.routes.size;
  }

  get(nodeId: string): Route | undefined {
    return this.routes.get(nodeId);
  }

  /** The node whose Basic user name this is. */
  byNodeUser(user: string): Route | undefined {
    const nodeId = this.byUser.get(user);
    return nodeId === undefined ? undefined : this.routes.get(nodeId);
  }

  /** Called after every change of a node (route undefined: gone), e.g. to drop cached credentials. */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /** Applies one node's state if it is newer than what the table holds; true when it changed the table. */
  apply(route: NodeRoute): boolean {
    const known = this.routes.get(route.nodeId)?.revision ?? this.tombstones.get(route.nodeId)?.revision ?? -1;
    if (route.revision <= known) return false;
    const interfaces = interfacesOf(route.image);
    if (route.state === 'deleting' || route.state === 'deleted' || !interfaces) {
      this.remove(route.nodeId, route.revision);
    } else {
      this.unindexUser(route.nodeId);
      const entry: Route = { ...route, interfaces, jwt: route.basic === null, passwordSha256: route.basic ? Buffer.from(route.basic.passwordSha256, 'hex') : null };
      this.routes.set(route.nodeId, entry);
      this.tombstones.delete(route.nodeId);
      if (route.basic) this.byUser.set(route.basic.user, route.nodeId);
    }
    this.notify(route.nodeId);
    return true;
  }

  /**
   * Replaces the table with a full snapshot: nodes missing from it are gone. Messages that
   * arrived while the snapshot was read must be applied again after it (`RouteSync` does).
   */
  replaceAll(routes: readonly NodeRoute[]): void {
    const present = new Set(routes.map((route) => route.nodeId));
    for (const nodeId of [...this.routes.keys()]) {
      if (present.has(nodeId)) continue;
      // No tombstone: the node may be missing because it was created after the snapshot was
      // read, and the replayed message that created it must still apply.
      this.remove(nodeId);
      this.notify(nodeId);
    }
    for (const route of routes) this.apply(route);
    this.pruneTombstones();
  }

  private remove(nodeId: string, tombstoneRevision?: number): void {
    this.unindexUser(nodeId);
    this.routes.delete(nodeId);
    if (tombstoneRevision !== undefined) this.tombstones.set(nodeId, { revision: tombstoneRevision, at: this.now() });
  }

  private unindexUser(nodeId: string): void {
    const user = this.routes.get(nodeId)?.basic?.user;
    if (user !== undefined && this.byUser.get(user) === nodeId) this.byUser.delete(user);
  }

  private notify(nodeId: string): void {
    const route = this.routes.get(nodeId);
    for (const listener of this.listeners) listener(nodeId, route);
  }

  private pruneTombstones(): void {
    const cutoff = this.now() - TOMBSTONE_MS;
    for (const [nodeId, { at }] of this.tombstones) if (at < cutoff) this.tombstones.delete(nodeId);
  }
}
