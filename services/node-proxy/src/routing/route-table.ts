import type { NodeRoute } from '@cloud/bus';
import { compileAccess, type AccessRules } from '../access/access-rules';
import { interfacesOf, type ImageInterfaces } from './interfaces';

/** A node as the proxy serves it: its route and what follows from it. */
export interface Route extends NodeRoute {
  interfaces: ImageInterfaces;
  /** Takes its owner's client access token (Bearer) instead of Basic credentials: a route without `basic`. */
  jwt: boolean;
  /** Every Basic credential the node takes, the SHA-256 as bytes for a constant-time comparison; empty for a jwt node. */
  basicCredentials: readonly VerifiableCredential[];
  /** The node's URL tokens: hex SHA-256 of the token → the credential's id. */
  urlTokens: ReadonlyMap<string, string>;
  /** Its owner's access rules, compiled; undefined when none restrict anything. */
  rules: AccessRules | undefined;
}

export interface VerifiableCredential {
  /** Which credential a caller authenticated with (usage per credential). */
  id: string;
  user: string;
  passwordSha256: Buffer;
}

/** The id a route from before several credentials gives its one credential. */
export const DEFAULT_CREDENTIAL_ID = 'default';

/** The credentials a route lists, or its `basic` alone when it predates the list. */
function credentialsOf(route: NodeRoute): VerifiableCredential[] {
  const listed = route.credentials ?? (route.basic ? [{ id: DEFAULT_CREDENTIAL_ID, ...route.basic }] : []);
  return listed.map(({ id, user, passwordSha256 }) => ({ id, user, passwordSha256: Buffer.from(passwordSha256, 'hex') }));
}

const NO_POOLS: ReadonlySet<string> = new Set();

type ChangeListener = (nodeId: string, route: Route | undefined) => void;

/** A deleted node's last revision is remembered this long, so a late older message cannot bring it back. */
const TOMBSTONE_MS = 10 * 60_000;

/**
 * Every node the proxy can route to, by id and by Basic user name, built from `node.*` messages
 * and snapshots; pools (`pool.*`, a route with `pool` and no upstream) are routes too, indexed by
 * their members. A change applies only if its revision is newer than what the table holds, so
 * messages arriving out of order or twice, and snapshots racing them, leave the newest state.
 */
export class RouteTable {
  private readonly routes = new Map<string, Route>();
  private readonly byUser = new Map<string, string>();
  /** Hex SHA-256 of a URL token → its node. */
  private readonly byToken = new Map<string, string>();
  private readonly tombstones = new Map<string, { revision: number; at: number }>();
  private readonly listeners: ChangeListener[] = [];
  /** Pool routes by id, and each member node → the pools listing it (a member need not be in the table). */
  private readonly poolRoutes = new Map<string, Route>();
  private readonly poolsByMember = new Map<string, Set<string>>();

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

  /** The node whose URL token has this hex SHA-256. */
  byUrlToken(tokenSha256: string): Route | undefined {
    const nodeId = this.byToken.get(tokenSha256);
    return nodeId === undefined ? undefined : this.routes.get(nodeId);
  }

  /** Every pool route in the table. */
  pools(): IterableIterator<Route> {
    return this.poolRoutes.values();
  }

  /** The ids of the pools that list this node as a member (empty for most nodes). */
  poolsOf(nodeId: string): ReadonlySet<string> {
    return this.poolsByMember.get(nodeId) ?? NO_POOLS;
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
      this.unindex(route.nodeId);
      const urlTokens = new Map((route.tokens ?? []).map(({ id, tokenSha256 }) => [tokenSha256, id]));
      // A Basic node may have URL tokens alone: only a node with neither takes client access tokens.
      const jwt = route.basic === null && urlTokens.size === 0;
      const entry: Route = { ...route, interfaces, jwt, basicCredentials: credentialsOf(route), urlTokens, rules: compileAccess(route.access) };
      this.routes.set(route.nodeId, entry);
      this.tombstones.delete(route.nodeId);
      for (const credential of entry.basicCredentials) this.byUser.set(credential.user, route.nodeId);
      for (const tokenSha256 of urlTokens.keys()) this.byToken.set(tokenSha256, route.nodeId);
      if (entry.pool) this.indexPool(entry);
    }
    this.notify(route.nodeId);
    return true;
  }

  /**
   * Ends a full snapshot, whose routes were applied page by page: nodes missing from it (`present`
   * holds its ids) are gone. Messages that arrived while the snapshot was read must be applied
   * again after it (`RouteSync` does).
   */
  removeAllBut(present: ReadonlySet<string>): void {
    for (const nodeId of [...this.routes.keys()]) {
      if (present.has(nodeId)) continue;
      // No tombstone: the node may be missing because it was created after the snapshot was
      // read, and the replayed message that created it must still apply.
      this.remove(nodeId);
      this.notify(nodeId);
    }
    this.pruneTombstones();
  }

  private remove(nodeId: string, tombstoneRevision?: number): void {
    this.unindex(nodeId);
    this.routes.delete(nodeId);
    if (tombstoneRevision !== undefined) this.tombstones.set(nodeId, { revision: tombstoneRevision, at: this.now() });
  }

  private indexPool(pool: Route): void {
    this.poolRoutes.set(pool.nodeId, pool);
    for (const member of pool.pool!.members) {
      let pools = this.poolsByMember.get(member);
      if (!pools) this.poolsByMember.set(member, (pools = new Set()));
      pools.add(pool.nodeId);
    }
  }

  /** Takes a route out of the user, token and pool indexes. */
  private unindex(nodeId: string): void {
    const route = this.routes.get(nodeId);
    if (route?.pool) {
      this.poolRoutes.delete(nodeId);
      for (const member of route.pool.members) {
        const pools = this.poolsByMember.get(member);
        pools?.delete(nodeId);
        if (pools?.size === 0) this.poolsByMember.delete(member);
      }
    }
    for (const { user } of route?.basicCredentials ?? []) if (this.byUser.get(user) === nodeId) this.byUser.delete(user);
    for (const tokenSha256 of route?.urlTokens.keys() ?? []) if (this.byToken.get(tokenSha256) === nodeId) this.byToken.delete(tokenSha256);
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
