import type { Clock } from '@cloud/auth';
import { WakeableTask, type BusMessage, type Outbox } from '@cloud/bus';
import type { Database, Executor } from '@cloud/db';
import type { Logger } from '@cloud/logging';
import type { LeasedNode, NodesRepository, Transition } from '../data-access/nodes.repository';
import { IMAGES } from '@cloud/chains';
import { ImageUnavailableError, type NodeDriver, type StakingTls } from './node-driver';
import { answeringMessage, failedMessage, lifecycleMessage } from './lifecycle-messages';
import type { NodeRecord, NodeState, SyncStatus } from '../data-access/node-record';
import { nodeAddress } from './node-view';

export interface ReconcilerOptions {
  db: Database;
  nodes: NodesRepository;
  outbox: Outbox;
  driver: NodeDriver;
  logger: Logger;
  clock: Clock;
  nodeDomain: string;
  /** Names this instance in leases; unique among running instances. */
  instanceId: string;
  leaseSeconds: number;
  intervalMs: number;
  /** New nodes claimed per pass, at most. */
  claimBatch?: number;
  /** A validator node's staking TLS pair, from the staking service that created the validator. */
  stakingTls(nodeId: string): Promise<StakingTls>;
}

/**
 * Drives every node this instance owns from its state in the database towards what the driver
 * reports: `provisioning` until the driver says it runs, `failed` when the driver gives up,
 * `stopping` until the driver has stopped it, `deleting` until the driver has destroyed it. A running node's upstream (the driver's endpoint)
 * is kept up to date, so the node-proxy follows a node that moves. Ownership is a lease in the
 * database, renewed on every pass, so with several instances each node has one driver; an
 * instance that stops (or stops renewing) loses its nodes to another, which adopts them through
 * the driver's idempotent `ensure`. A pass runs every `intervalMs`, and at once on `wake()`.
 *
 * The data plane outlives the control plane: an instance that cannot reach the database keeps its
 * nodes running (nobody can take a lease then), and stops one only once it learns that another
 * instance holds its lease. Every move it writes is fenced by the lease generation it holds.
 */
export class Reconciler {
  /** The nodes this instance drives, and the generation of its lease on each. */
  private readonly owned = new Map<string, number>();
  private readonly task: WakeableTask;

  constructor(private readonly options: ReconcilerOptions) {
    this.task = new WakeableTask(
      () =>
        this.pass().catch((error: unknown) => {
          this.options.logger.error('reconciler pass failed', { error });
        }),
      () => options.intervalMs,
    );
  }

  start(): void {
    this.task.start();
  }

  /** Runs a pass now (or right after the one under way). */
  wake(): void {
    this.task.wake();
  }

  /**
   * Stops passing, leaves every node this instance drives running (or stops them, keeping their
   * data, with `stopNodes`) and gives up the leases, so the next instance takes them at once
   * rather than once they expire. The driver has let go of the nodes before the leases go.
   */
  async stop(options: { stopNodes?: boolean } = {}): Promise<void> {
    await this.task.stop();
    await this.options.driver.close(options);
    this.owned.clear();
    await this.options.nodes.releaseLeases(this.options.instanceId);
  }

  /** One pass over this instance's nodes; exposed for tests that step the reconciler by hand. */
  async pass(): Promise<void> {
    const { nodes, instanceId, leaseSeconds, claimBatch = 20 } = this.options;
    let mine: LeasedNode[];
    try {
      mine = await nodes.renewLeases(instanceId, leaseSeconds);
    } catch (error) {
      // Unreachable for every instance, nobody can take these nodes: they keep running and
      // answering. Were only this instance cut off, another takes a node once its lease expires,
      // and this one stops its copy when it next reaches the database and sees the new owner.
      if (this.owned.size > 0) this.options.logger.warn('could not renew the node leases; the nodes keep running', { nodes: this.owned.size });
      throw error;
    }
    await this.releaseLost(mine);
    mine.push(...(await nodes.claimUnowned(instanceId, leaseSeconds, claimBatch)));
    for (const node of mine) {
      this.owned.set(node.id, node.lease.generation);
      try {
        await this.reconcile(node);
      } catch (error) {
        this.options.logger.error('could not reconcile node', { nodeId: node.id, state: node.state, error });
      }
    }
  }

  private async reconcile(node: LeasedNode): Promise<void> {
    const { driver } = this.options;
    if (node.state === 'deleting') {
      await driver.destroy(node.id);
      await this.transition(node, { from: ['deleting'], to: 'deleted' }, (deleted) => lifecycleMessage('node.deleted', deleted));
      this.owned.delete(node.id);
      return;
    }
    if (node.state === 'stopping') return this.stopNode(node);
    try {
      const validator = IMAGES[node.image].purpose === 'validator';
      await driver.ensure({
        id: node.id,
        image: node.image,
        large: node.large,
        dev: node.dev,
        txindex: node.txindex,
        userId: node.userId,
        ...(validator ? { stakingTls: () => this.options.stakingTls(node.id) } : {}),
      });
    } catch (error) {
      if (!(error instanceof ImageUnavailableError)) throw error;
      this.owned.delete(node.id);
      await this.transition(node, { from: ANSWERABLE, to: 'failed', reason: error.message }, failedMessage);
      return;
    }
    const status = await driver.status(node.id);
    if (status.state === 'running') {
      if (status.sync && !sameSync(node.sync, status.sync)) await this.options.nodes.recordSync(node.id, status.sync);
      await this.answering(node, status.endpoint.url, status.sync?.syncing === true);
    } else if (status.state === 'loading' && node.state === 'running') {
      // It answers only that it is loading its blocks (a restarted daemon): syncing until it serves again.
      await this.transition(node, { from: ['running'], to: 'syncing', upstreamUrl: status.endpoint.url }, (changed) =>
        answeringMessage(changed, nodeAddress(node.id, this.options.nodeDomain)),
      );
    } else if (status.state === 'failed') {
      await driver.stop(node.id);
      this.owned.delete(node.id);
      await this.transition(node, { from: ANSWERABLE, to: 'failed', reason: status.reason }, failedMessage);
    }
  }

  /**
   * Stops the node through the driver, keeping its data: it settles as `stopped` (no instance
   * needs to own it), or, for a restart or a resize, goes back to `provisioning`, which the next
   * pass ensures with the node's resource class as it is then.
   */
  private async stopNode(node: LeasedNode): Promise<void> {
    const { driver } = this.options;
    await driver.stop(node.id);
    // Not until it is really gone (a pod takes a while to terminate): a restart that scaled a
    // StatefulSet to zero and straight back to one would restart nothing. The next pass goes on.
    if ((await driver.status(node.id)).state !== 'absent') return;
    if (node.startAfterStop) {
      await this.transition(node, { from: ['stopping'], to: 'provisioning' }, (starting) => lifecycleMessage('node.starting', starting));
      return;
    }
    this.owned.delete(node.id);
    await this.transition(node, { from: ['stopping'], to: 'stopped' }, (stopped) => lifecycleMessage('node.stopped', stopped));
  }

  /**
   * The driver runs the node at `upstreamUrl`: a provisioning node becomes `syncing` there while
   * it catches up with its network, and `running` once it has (a running node stays running when
   * it falls behind again: its sync fields say so). A node that answers somewhere new (taken over
   * by another instance, or given another port) is announced again, at a new revision.
   */
  private async answering(node: LeasedNode, upstreamUrl: string, syncing: boolean): Promise<void> {
    const announce = (changed: NodeRecord) => answeringMessage(changed, nodeAddress(node.id, this.options.nodeDomain));
    const to = syncing && node.state !== 'running' ? 'syncing' : 'running';
    if (node.state === 'provisioning' || (node.state === 'syncing' && to === 'running')) {
      await this.transition(node, { from: [node.state], to, upstreamUrl }, announce);
    } else if (node.upstreamUrl !== upstreamUrl) {
      const moved = await this.withMessage((trx, at) => this.options.nodes.setUpstream(trx, node.id, upstreamUrl, at, node.lease), announce);
      if (moved) this.options.logger.info('node upstream changed', { nodeId: node.id, from: node.upstreamUrl ?? undefined, to: upstreamUrl });
    }
  }

  /** A move of a node this instance drives: applies only while its lease is still the one held. */
  private async transition(node: LeasedNode, change: Omit<Transition, 'at' | 'lease'>, messageOf: (changed: NodeRecord) => BusMessage): Promise<void> {
    const changed = await this.withMessage((trx, at) => this.options.nodes.transition(trx, node.id, { ...change, lease: node.lease, at }), messageOf);
    if (changed)
      this.options.logger.info('node state changed', { nodeId: node.id, from: node.state, to: changed.state, reason: changed.stateReason ?? undefined });
  }

  /** Applies a change with its bus message in one transaction; nothing if the node moved on meanwhile (e.g. a delete). */
  private withMessage(
    change: (trx: Executor, at: Date) => Promise<NodeRecord | undefined>,
    messageOf: (changed: NodeRecord) => BusMessage,
  ): Promise<NodeRecord | undefined> {
    return this.options.db.transaction(async (trx) => {
      const changed = await change(trx, new Date(this.options.clock()));
      if (changed) await this.options.outbox.add(trx, [messageOf(changed)]);
      return changed;
    });
  }

  /**
   * Stops running the nodes whose lease this instance no longer holds: another instance claimed
   * it (its lease had expired), or claimed it and gave it back since (a new generation).
   */
  private async releaseLost(renewed: readonly LeasedNode[]): Promise<void> {
    const generations = new Map(renewed.map((node) => [node.id, node.lease.generation]));
    for (const [id, generation] of [...this.owned]) {
      if (generations.get(id) === generation) continue;
      this.options.logger.warn('another instance held the lease on a node; releasing it', { nodeId: id });
      await this.options.driver.release(id);
      this.owned.delete(id);
    }
  }
}

/** The states a driver's failure ends. */
const ANSWERABLE: readonly NodeState[] = ['provisioning', 'syncing', 'running'];

// A reading that says nothing new is still stored this often, so `checkedAt` shows the node is asked.
const SYNC_REFRESH_MS = 30_000;

/** Whether a new reading says nothing new, and the stored one is recent (so the row is not written every pass). */
function sameSync(stored: SyncStatus | null, read: SyncStatus): boolean {
  return (
    stored !== null &&
    read.checkedAt.getTime() - stored.checkedAt.getTime() < SYNC_REFRESH_MS &&
    stored.height === read.height &&
    stored.bestKnownHeight === read.bestKnownHeight &&
    stored.peers === read.peers &&
    stored.syncing === read.syncing &&
    Math.abs(stored.progress - read.progress) < 1e-6
  );
}
