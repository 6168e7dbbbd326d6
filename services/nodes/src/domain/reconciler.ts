import type { Clock } from '@cloud/auth';
import { WakeableTask, type BusMessage, type Outbox } from '@cloud/bus';
import type { Database, Executor } from '@cloud/db';
import type { Logger } from '@cloud/logging';
import type { NodesRepository, Transition } from '../data-access/nodes.repository';
import { IMAGES } from '@cloud/chains';
import { ImageUnavailableError, type NodeDriver, type StakingTls } from '../drivers/driver';
import { failedMessage, lifecycleMessage, runningMessage } from './lifecycle-messages';
import type { NodeRecord } from './node';
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
 * `deleting` until the driver has destroyed it. A running node's upstream (the driver's endpoint)
 * is kept up to date, so the node-proxy follows a node that moves. Ownership is a lease in the
 * database, renewed on every pass, so with several instances each node has one driver; an
 * instance that stops (or stops renewing) loses its nodes to another, which adopts them through
 * the driver's idempotent `ensure`. A pass runs every `intervalMs`, and at once on `wake()`.
 */
export class Reconciler {
  private readonly owned = new Set<string>();
  private readonly task: WakeableTask;
  private lastRenewal: number;

  constructor(private readonly options: ReconcilerOptions) {
    this.lastRenewal = options.clock();
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

  /** Stops passing, releases every node this instance drives (the driver keeps their data) and gives up the leases. */
  async stop(): Promise<void> {
    await this.task.stop();
    await this.options.driver.close();
    this.owned.clear();
    await this.options.nodes.releaseLeases(this.options.instanceId);
  }

  /** One pass over this instance's nodes; exposed for tests that step the reconciler by hand. */
  async pass(): Promise<void> {
    const { nodes, instanceId, leaseSeconds, claimBatch = 20 } = this.options;
    let mine: NodeRecord[];
    try {
      mine = await nodes.renewLeases(instanceId, leaseSeconds);
      this.lastRenewal = this.options.clock();
    } catch (error) {
      // Past half the lease another instance may soon take these nodes: stop running them here
      // first, so no node ever runs twice.
      if (this.options.clock() - this.lastRenewal > (leaseSeconds * 1000) / 2) await this.releaseAll();
      throw error;
    }
    await this.releaseLost(new Set(mine.map((node) => node.id)));
    mine.push(...(await nodes.claimUnowned(instanceId, leaseSeconds, claimBatch)));
    for (const node of mine) {
      this.owned.add(node.id);
      try {
        await this.reconcile(node);
      } catch (error) {
        this.options.logger.error('could not reconcile node', { nodeId: node.id, state: node.state, error });
      }
    }
  }

  private async reconcile(node: NodeRecord): Promise<void> {
    const { driver } = this.options;
    if (node.state === 'deleting') {
      await driver.destroy(node.id);
      await this.transition(node, { from: ['deleting'], to: 'deleted' }, (deleted) => lifecycleMessage('node.deleted', deleted));
      this.owned.delete(node.id);
      return;
    }
    try {
      const validator = IMAGES[node.image].purpose === 'validator';
      await driver.ensure({ id: node.id, image: node.image, large: node.large, userId: node.userId, ...(validator ? { stakingTls: () => this.options.stakingTls(node.id) } : {}) });
    } catch (error) {
      if (!(error instanceof ImageUnavailableError)) throw error;
      this.owned.delete(node.id);
      await this.transition(node, { from: ['provisioning', 'running'], to: 'failed', reason: error.message }, failedMessage);
      return;
    }
    const status = await driver.status(node.id);
    if (status.state === 'running') {
      await this.running(node, status.endpoint.url);
    } else if (status.state === 'failed') {
      await driver.stopFailed(node.id);
      this.owned.delete(node.id);
      await this.transition(node, { from: ['provisioning', 'running'], to: 'failed', reason: status.reason }, failedMessage);
    }
  }

  /**
   * The driver runs the node at `upstreamUrl`: a provisioning node becomes running there, and a
   * running node that answers somewhere new (taken over by another instance, or given another
   * port) is announced again with `node.running`, at a new revision.
   */
  private async running(node: NodeRecord, upstreamUrl: string): Promise<void> {
    const announce = (changed: NodeRecord) => runningMessage(changed, nodeAddress(node.id, this.options.nodeDomain));
    if (node.state === 'provisioning') {
      await this.transition(node, { from: ['provisioning'], to: 'running', upstreamUrl }, announce);
    } else if (node.state === 'running' && node.upstreamUrl !== upstreamUrl) {
      const moved = await this.withMessage((trx, at) => this.options.nodes.setUpstream(trx, node.id, upstreamUrl, at), announce);
      if (moved) this.options.logger.info('node upstream changed', { nodeId: node.id, from: node.upstreamUrl ?? undefined, to: upstreamUrl });
    }
  }

  private async transition(node: NodeRecord, change: Omit<Transition, 'at'>, messageOf: (changed: NodeRecord) => BusMessage): Promise<void> {
    const changed = await this.withMessage((trx, at) => this.options.nodes.transition(trx, node.id, { ...change, at }), messageOf);
    if (changed) this.options.logger.info('node state changed', { nodeId: node.id, from: node.state, to: changed.state, reason: changed.stateReason ?? undefined });
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

  /** Stops running nodes whose lease another instance holds now (this one failed to renew in time). */
  private async releaseLost(stillMine: Set<string>): Promise<void> {
    for (const id of [...this.owned]) {
      if (stillMine.has(id)) continue;
      this.options.logger.warn('lost the lease on a node; releasing it', { nodeId: id });
      await this.options.driver.release(id);
      this.owned.delete(id);
    }
  }

  private async releaseAll(): Promise<void> {
    await this.releaseLost(new Set());
  }
}
