import type { ProxyAddresses } from '@cloud/chains';
import { randomUUID } from 'node:crypto';
import type { Clock } from '@cloud/auth';
import type { Outbox, Payload, RpcReply } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { ConflictError, ForbiddenError, InvalidInputError } from '@cloud/http';
import type { NodesRepository } from '../data-access/nodes.repository';
import type { PoolsRepository } from '../data-access/pools.repository';
import type { ChainOption, NodeDriver } from './node-driver';
import { redactLines } from './log-redaction';
import { IMAGES, networkLabel, type UserImageId } from '@cloud/chains';
import { lifecycleMessage, nodeRoute } from './lifecycle-messages';
import { DEFAULT_CREDENTIAL_NAME, newCredential } from './node-credentials';
import type { NodeRecord } from '../data-access/node-record';
import { notFound } from './node-not-found';
import { toNodeView, type NodeView } from './node-view';
import { poolRoute } from './pool-messages';
import { deletePoolsOf, removeFromPools } from './pool-registry';

/** What the node use cases share: the registry, its operations, access rules and credentials. */
export interface NodeUseCaseDependencies {
  db: Database;
  nodes: NodesRepository;
  /** A node being deleted leaves its pools; the routes snapshot lists pools after nodes. */
  pools: PoolsRepository;
  outbox: Outbox;
  driver: NodeDriver;
  clock: Clock;
  /** Where clients reach the node-proxy: the node records' addresses. */
  addresses: ProxyAddresses;
  maxNodesPerUser: number;
  /** Called after a change the reconciler should act on at once (this instance's; others hear the bus). */
  onChange(): void;
}

/** A chain option as the API shows it: with its network in words (`@cloud/chains` networkLabel). */
export type ChainOptionView = ChainOption & { networkLabel: string };

export interface CreateNodeRequest {
  image: UserImageId;
  /** Trimmed and checked by the API's nodeNameSchema. */
  name?: string | undefined;
  large: boolean;
  jwt: boolean;
  txindex: boolean;
}

/**
 * A user's nodes as the API and the node-proxy see them: the chains on offer, creating, listing,
 * renaming and deleting nodes, their logs, the proxy's routes and the staking service's validator
 * nodes. Each change and its bus message commit together.
 */
export class NodeRegistry {
  constructor(private readonly deps: NodeUseCaseDependencies) {}

  /** What users can ask for: validator images are the staking service's to ask for. */
  async chains(): Promise<ChainOptionView[]> {
    return (await this.deps.driver.chains())
      .filter((option) => IMAGES[option.image].purpose === 'node')
      .map((option) => ({ ...option, networkLabel: networkLabel(option) }));
  }

  async create(userId: string, request: CreateNodeRequest): Promise<NodeView> {
    const { db, nodes, outbox, maxNodesPerUser } = this.deps;
    const chains = await this.chains();
    const option = chains.find((each) => each.image === request.image);
    if (!option) {
      const offered = chains.map((each) => each.image).join(', ');
      throw new InvalidInputError(`body.image: ${request.image} is not offered by this installation (offered: ${offered})`);
    }
    if (request.txindex) assertTxindexPossible(option);
    const first = request.jwt ? undefined : newCredential(DEFAULT_CREDENTIAL_NAME, new Date(this.deps.clock()));
    const node = this.newNode({
      id: `node-${randomUUID()}`,
      name: request.name ?? null,
      userId,
      image: request.image,
      large: request.large,
      jwt: request.jwt,
      dev: option.dev,
      txindex: request.txindex,
      software: option.software,
      credentials: first ? [first.credential] : [],
    });
    await db.transaction(async (trx) => {
      await nodes.lockUser(trx, userId);
      if ((await nodes.countLive(trx, userId)) >= maxNodesPerUser) {
        throw new ForbiddenError(`you have ${maxNodesPerUser} nodes, the most allowed; delete one first`, 'LimitExceeded');
      }
      await nodes.insert(trx, node);
      await outbox.add(trx, [lifecycleMessage('node.created', node)]);
    });
    this.deps.onChange();
    return this.view(node, first && { nodeUser: first.credential.user, nodePass: first.nodePass });
  }

  /**
   * Creates the node of a validator the staking service created (`validator.created`), under the
   * validator's id and with the Basic credentials it showed the user. Idempotent: a redelivered
   * message finds the node there. A validator counts against the staking service's own limit, not
   * MAX_NODES_PER_USER. When nothing here runs the image, the node is created anyway and the
   * reconciler fails it with that reason, so the user sees why.
   */
  async createValidatorNode(request: Payload<'validator.created'>): Promise<void> {
    const { db, nodes, outbox } = this.deps;
    const option = (await this.deps.driver.chains()).find((each) => each.image === request.image);
    const node = this.newNode({
      id: request.nodeId,
      name: null,
      userId: request.userId,
      image: request.image,
      large: false,
      jwt: false,
      dev: option?.dev ?? false,
      txindex: false,
      software: option?.software ?? 'unavailable',
      credentials: [
        {
          kind: 'basic',
          id: `cred-${randomUUID()}`,
          name: DEFAULT_CREDENTIAL_NAME,
          user: request.basic.user,
          passwordSha256: request.basic.passwordSha256,
          createdAt: new Date(this.deps.clock()).toISOString(),
        },
      ],
    });
    const created = await db.transaction(async (trx) => {
      if (await nodes.exists(trx, node.id)) return false;
      await nodes.insert(trx, node);
      await outbox.add(trx, [lifecycleMessage('node.created', node)]);
      return true;
    });
    if (created) this.deps.onChange();
  }

  /** Deletes a validator's node (`validator.deleted`: the staking service checked its stake is not locked). Idempotent. */
  async deleteValidatorNode(userId: string, id: string): Promise<void> {
    const { db, nodes, outbox } = this.deps;
    const deleting = await db.transaction(async (trx) => {
      const node = await nodes.findVisible(userId, id, trx);
      if (!node || node.state === 'deleting') return undefined;
      const changed = await nodes.transition(trx, id, { from: [node.state], to: 'deleting', at: new Date(this.deps.clock()) });
      // Moved by the reconciler in between: throwing has the message retried against the new state.
      if (!changed) throw new Error(`node ${id} changed while being deleted`);
      await outbox.add(trx, [lifecycleMessage('node.deleting', changed)]);
      return changed;
    });
    if (deleting) this.deps.onChange();
  }

  async list(userId: string): Promise<NodeView[]> {
    return (await this.deps.nodes.listVisible(userId)).map((node) => this.view(node));
  }

  async get(userId: string, id: string): Promise<NodeView> {
    return this.view(await this.find(userId, id));
  }

  /**
   * Names the node (null: no name). Any node of the user's, a validator's too (a label changes
   * nothing the staking service manages), until it is being deleted (409 then).
   */
  async rename(userId: string, id: string, name: string | null): Promise<NodeView> {
    const { db, nodes } = this.deps;
    const renamed = await db.transaction(async (trx) => {
      const node = await nodes.findVisible(userId, id, trx);
      if (!node) throw notFound(id);
      if (node.state === 'deleting') throw new ConflictError(`node ${id} is deleting`);
      if (node.name === name) return node;
      const changed = await nodes.setName(trx, userId, id, name, new Date(this.deps.clock()));
      if (!changed) throw new ConflictError(`node ${id} changed meanwhile; try again`);
      return changed;
    });
    return this.view(renamed);
  }

  /** Asks for the node's deletion: 200 with the node `deleting`; asking again changes nothing. */
  async delete(userId: string, id: string): Promise<NodeView> {
    const { db, nodes, outbox } = this.deps;
    const deleting = await db.transaction(async (trx) => {
      const node = await nodes.findVisible(userId, id, trx);
      if (!node) throw notFound(id);
      if (IMAGES[node.image].purpose === 'validator') {
        // Its stake may be locked on the chain: only the staking service can tell.
        const { chain, network } = IMAGES[node.image];
        throw new ConflictError(`node ${id} is a validator; delete it with DELETE /staking/${chain}/${network}/validators/${id}`);
      }
      if (node.state === 'deleting') return node;
      const at = new Date(this.deps.clock());
      const changed = await nodes.transition(trx, id, { from: [node.state], to: 'deleting', at });
      // The reconciler moved it in between: ask the caller to try again rather than guess.
      if (!changed) throw new ConflictError(`node ${id} changed while being deleted; try again`);
      await outbox.add(trx, [lifecycleMessage('node.deleting', changed)]);
      // From now on no proxy sends it a pool's calls.
      await removeFromPools(trx, this.deps, id, at);
      return changed;
    });
    this.deps.onChange();
    return this.view(deleting);
  }

  /** The last `lines` lines of the node's log. */
  async logs(userId: string, id: string, lines: number): Promise<string[]> {
    const node = await this.find(userId, id);
    return this.redactedLogs(node.id, lines);
  }

  /** The last `lines` lines of any user's node's log (the node-proxy checked who asks). */
  async logsOfAnyNode(id: string, lines: number): Promise<string[]> {
    const node = await this.deps.nodes.findUndeleted(id);
    if (!node) throw notFound(id);
    return this.redactedLogs(node.id, lines);
  }

  /**
   * Redacted again as they are read: the local driver redacts as it writes, but a log written
   * before it did, or a Kubernetes pod's log, is read as the software printed it.
   */
  private async redactedLogs(nodeId: string, lines: number): Promise<string[]> {
    return redactLines(await this.deps.driver.logs(nodeId, lines));
  }

  /**
   * A page of the routes of every node and then every pool not yet deleted, in id order; `next` is
   * where the following page starts. Every node id (`node-…`) sorts before every pool id
   * (`pool-…`), so one cursor pages through both: after the last node, the pools from the first.
   */
  async routes(after: string | undefined, limit: number): Promise<RpcReply<'nodes.routes'>> {
    const nodes = (await this.deps.nodes.listRoutable(after, limit)).map(nodeRoute);
    const pools = nodes.length < limit ? (await this.deps.pools.listRoutable(after, limit - nodes.length)).map(poolRoute) : [];
    const routes = [...nodes, ...pools];
    return { routes, next: routes.length === limit ? (routes.at(-1)?.nodeId ?? null) : null };
  }

  /** Deletes every node and pool of a user who was deleted. Idempotent: a redelivery finds nothing left to do. */
  async deleteAllOf(userId: string): Promise<void> {
    const { db, nodes, outbox } = this.deps;
    const deleting = await db.transaction(async (trx) => {
      const at = new Date(this.deps.clock());
      // The nodes first, then the pools: the order every transaction locks them in.
      const changed = await nodes.markAllDeleting(trx, userId, at);
      await deletePoolsOf(trx, this.deps, userId, at);
      if (changed.length > 0)
        await outbox.add(
          trx,
          changed.map((node) => lifecycleMessage('node.deleting', node)),
        );
      return changed;
    });
    if (deleting.length > 0) this.deps.onChange();
  }

  private newNode(
    fields: Omit<NodeRecord, 'state' | 'stateReason' | 'startAfterStop' | 'upstreamUrl' | 'access' | 'revision' | 'sync' | 'createdAt' | 'updatedAt'>,
  ): NodeRecord {
    const now = new Date(this.deps.clock());
    return {
      ...fields,
      state: 'provisioning',
      stateReason: null,
      startAfterStop: false,
      upstreamUrl: null,
      access: null,
      revision: 0,
      sync: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  private async find(userId: string, id: string): Promise<NodeRecord> {
    const node = await this.deps.nodes.findVisible(userId, id);
    if (!node) throw notFound(id);
    return node;
  }

  private view(node: NodeRecord, credentials?: { nodeUser: string; nodePass: string }): NodeView {
    return toNodeView(node, this.deps.addresses, credentials);
  }
}

/** A transaction index is a Bitcoin-family daemon's (-txindex), and needs every block: not on a pruned node. */
function assertTxindexPossible(option: ChainOption): void {
  if (IMAGES[option.image].family !== 'bitcoin') {
    throw new InvalidInputError(`body.txindex: only Bitcoin-family nodes (btc, bch, ltc and their testnets) keep a transaction index, not ${option.image}`);
  }
  if (option.pruned) {
    throw new InvalidInputError(
      `body.txindex: ${option.image} nodes here are pruned (they keep only recent blocks), and a pruned node cannot have a transaction index`,
    );
  }
}
