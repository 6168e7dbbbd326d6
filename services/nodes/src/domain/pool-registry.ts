import { randomUUID } from 'node:crypto';
import type { Outbox } from '@cloud/bus';
import { IMAGES, type ProxyAddresses } from '@cloud/chains';
import type { Database, Executor } from '@cloud/db';
import { ForbiddenError, InvalidInputError } from '@cloud/http';
import type { NodeRecord } from '../data-access/node-record';
import type { NodesRepository } from '../data-access/nodes.repository';
import type { PoolRecord } from '../data-access/pool-record';
import type { PoolChange, PoolsRepository } from '../data-access/pools.repository';
import { poolNotFound } from './credentialed-endpoints';
import { DEFAULT_CREDENTIAL_NAME, newCredential } from './node-credentials';
import { poolMessage } from './pool-messages';
import { poolViews, toPoolView, type PoolView } from './pool-view';

/** The lag bound of a pool created without one. */
export const DEFAULT_MAX_LAG_BLOCKS = 5;

/** The families the node-proxy serves pools of (it reads their heads); not avalanche validators' nodes. */
const POOLED_FAMILIES: ReadonlySet<string> = new Set(['bitcoin', 'ethereum']);

export interface PoolRegistryDependencies {
  db: Database;
  pools: PoolsRepository;
  nodes: NodesRepository;
  outbox: Outbox;
  clock: () => number;
  addresses: ProxyAddresses;
  maxPoolsPerUser: number;
}

export interface CreatePoolRequest {
  name: string;
  /** 1 to 16 distinct node ids (the API's schema checks the count and duplicates). */
  members: string[];
  maxLagBlocks?: number | undefined;
}

/**
 * A user's pools (issue 31): one endpoint over several of their nodes of one image and dev flag,
 * with its own credentials (`NodeCredentials` serves them, as a node's). Each change and its
 * `pool.changed` / `pool.deleted` commit together through the outbox.
 */
export class PoolRegistry {
  constructor(private readonly deps: PoolRegistryDependencies) {}

  /** Creates the pool with one Basic credential, `default`, whose password only this answer shows. */
  async create(userId: string, request: CreatePoolRequest): Promise<PoolView> {
    const { db, pools, outbox, maxPoolsPerUser } = this.deps;
    const at = new Date(this.deps.clock());
    const first = newCredential(DEFAULT_CREDENTIAL_NAME, at);
    const { pool, members } = await db.transaction(async (trx) => {
      await pools.lockUser(trx, userId);
      if ((await pools.countLive(trx, userId)) >= maxPoolsPerUser) {
        throw new ForbiddenError(`you have ${maxPoolsPerUser} pools, the most allowed; delete one first`, 'LimitExceeded');
      }
      const members = await this.checkedMembers(trx, userId, request.members);
      const { image, dev } = members[0]!;
      const pool: PoolRecord = {
        id: `pool-${randomUUID()}`,
        userId,
        name: request.name,
        image,
        chain: IMAGES[image].chain,
        dev,
        maxLagBlocks: request.maxLagBlocks ?? DEFAULT_MAX_LAG_BLOCKS,
        members: request.members,
        credentials: [first.credential],
        access: null,
        revision: 0,
        deleted: false,
        createdAt: at,
        updatedAt: at,
      };
      await pools.insert(trx, pool);
      await outbox.add(trx, [poolMessage(pool)]);
      return { pool, members };
    });
    const byId = new Map(members.map((node) => [node.id, node]));
    return toPoolView(pool, byId, this.deps.addresses, { nodeUser: first.credential.user, nodePass: first.nodePass });
  }

  /** The user's pools, oldest first. */
  async list(userId: string): Promise<PoolView[]> {
    return poolViews(await this.deps.pools.listVisible(userId), this.deps.nodes, this.deps.addresses);
  }

  async get(userId: string, id: string): Promise<PoolView> {
    const pool = await this.deps.pools.findVisible(userId, id);
    if (!pool) throw poolNotFound(id);
    return (await poolViews([pool], this.deps.nodes, this.deps.addresses))[0]!;
  }

  /** Renames the pool, changes its lag bound or replaces its members (as a whole, checked as at creation): a new revision, announced. */
  async update(userId: string, id: string, change: PoolChange): Promise<PoolView> {
    const { db, pools, outbox } = this.deps;
    const changed = await db.transaction(async (trx) => {
      if (!(await pools.findVisible(userId, id, trx))) throw poolNotFound(id);
      // Nodes before the pool, as a node's deletion locks them: two transactions never wait on each other.
      const members = change.members && (await this.checkedMembers(trx, userId, change.members));
      const current = await pools.findVisibleForUpdate(trx, userId, id);
      if (!current) throw poolNotFound(id);
      if (members) {
        const [member] = members;
        // The route's image and dev flag are the pool's for good: what the proxy cached for it stays true.
        if (member!.image !== current.image || member!.dev !== current.dev) {
          throw new InvalidInputError(
            `body.members: the pool serves ${describe(current)} nodes; ${member!.id} is ${describe(member!)} (create another pool for other nodes)`,
          );
        }
      }
      const written = await pools.update(trx, id, change, new Date(this.deps.clock()));
      if (!written) throw poolNotFound(id);
      await outbox.add(trx, [poolMessage(written)]);
      return written;
    });
    return (await poolViews([changed], this.deps.nodes, this.deps.addresses))[0]!;
  }

  /** Deletes the pool at once (no process runs it): its route goes from every proxy, its members run on. */
  async delete(userId: string, id: string): Promise<{ id: string; deleted: true }> {
    const { db, pools, outbox } = this.deps;
    await db.transaction(async (trx) => {
      const current = await pools.findVisibleForUpdate(trx, userId, id);
      if (!current) throw poolNotFound(id);
      const deleted = await pools.markDeleted(trx, id, new Date(this.deps.clock()));
      if (!deleted) throw poolNotFound(id);
      await outbox.add(trx, [poolMessage(deleted)]);
    });
    return { id, deleted: true };
  }

  /**
   * The nodes of `ids` as members: the user's, not deleting, of one image and dev flag, of a family
   * the proxy pools; locked until the transaction ends, so none starts its deletion meanwhile.
   */
  private async checkedMembers(trx: Executor, userId: string, ids: readonly string[]): Promise<NodeRecord[]> {
    const found = new Map((await this.deps.nodes.lockVisible(trx, userId, ids)).map((node) => [node.id, node]));
    const members = ids.map((id) => {
      const node = found.get(id);
      if (!node) throw new InvalidInputError(`body.members: no node ${id} of yours`);
      if (node.state === 'deleting') throw new InvalidInputError(`body.members: node ${id} is being deleted`);
      if (!POOLED_FAMILIES.has(IMAGES[node.image].family)) {
        throw new InvalidInputError(`body.members: node ${id} is ${node.image}; pools are of Bitcoin- or Ethereum-family nodes only`);
      }
      return node;
    });
    const [first] = members;
    const other = members.find((node) => node.image !== first!.image || node.dev !== first!.dev);
    if (other) {
      throw new InvalidInputError(
        `body.members: all members must be of one image and network: ${first!.id} is ${describe(first!)}, ${other.id} is ${describe(other)}`,
      );
    }
    return members;
  }
}

const describe = (node: { image: string; dev: boolean }) => `${node.image}${node.dev ? ' on a dev chain' : ''}`;

/** A node being deleted leaves every pool it is in; each pool's new route is announced in the deletion's transaction. */
export async function removeFromPools(trx: Executor, deps: { pools: PoolsRepository; outbox: Outbox }, nodeId: string, at: Date): Promise<void> {
  const changed = await deps.pools.removeMemberEverywhere(trx, nodeId, at);
  if (changed.length > 0) await deps.outbox.add(trx, changed.map(poolMessage));
}

/** Every pool of a deleted user is deleted, announced in the same transaction. */
export async function deletePoolsOf(trx: Executor, deps: { pools: PoolsRepository; outbox: Outbox }, userId: string, at: Date): Promise<void> {
  const deleted = await deps.pools.markAllDeleted(trx, userId, at);
  if (deleted.length > 0) await deps.outbox.add(trx, deleted.map(poolMessage));
}
