import { ConflictError } from '@cloud/http';
import { IMAGES } from '@cloud/chains';
import { lifecycleMessage } from './lifecycle-messages';
import { STARTED_STATES, type NodeRecord, type NodeState } from '../data-access/node-record';
import { notFound } from './node-not-found';
import type { NodeUseCaseDependencies } from './node-registry';
import { toNodeView, type NodeView } from './node-view';

export type NodeOperation = 'stop' | 'start' | 'restart';

interface OperationPlan {
  /** The states the operation applies to; in any other it answers 409 Conflict. */
  from: readonly NodeState[];
  to: 'stopping' | 'provisioning';
  startAfterStop: boolean;
}

/**
 * What each operation asks the reconciler for. A failed node runs nowhere already: stopping it
 * just settles it as stopped, and starting (or restarting) it tries again on its kept data.
 */
const PLANS: Record<NodeOperation, OperationPlan> = {
  stop: { from: [...STARTED_STATES, 'failed'], to: 'stopping', startAfterStop: false },
  start: { from: ['stopped', 'failed'], to: 'provisioning', startAfterStop: false },
  restart: { from: [...STARTED_STATES, 'failed'], to: 'stopping', startAfterStop: true },
};

/**
 * Stop, start, restart and resize a node, keeping its data, credentials and address. Like
 * create and delete, each only writes the wanted state (with its bus message, in one
 * transaction); the reconciler makes the driver follow. An operation that does not apply to the
 * node's state answers 409 naming the state, rather than pretending it was done; a validator's
 * node is the staking service's to manage (409 as for delete).
 */
export class NodeOperations {
  constructor(private readonly deps: NodeUseCaseDependencies) {}

  run(userId: string, id: string, operation: NodeOperation): Promise<NodeView> {
    const plan = PLANS[operation];
    return this.change(userId, id, (node) => {
      if (!plan.from.includes(node.state)) {
        throw new ConflictError(`node ${id} is ${node.state}; ${operation} applies to a node that is ${plan.from.join(', ')}`);
      }
      return { to: plan.to, startAfterStop: plan.startAfterStop };
    });
  }

  /**
   * Records the node's resource class. A node that runs (or is being brought up) is restarted
   * with it; a stopped, failed or stopping one takes it when it next starts. The same class
   * changes nothing.
   */
  resize(userId: string, id: string, large: boolean): Promise<NodeView> {
    return this.change(userId, id, (node) => {
      if (node.state === 'deleting') throw new ConflictError(`node ${id} is deleting`);
      if (node.large === large) return undefined;
      if (STARTED_STATES.includes(node.state)) return { to: 'stopping', startAfterStop: true, large };
      return { large };
    });
  }

  /** Applies `decide`'s change to the caller's node in one transaction with its bus message; undefined from `decide` changes nothing. */
  private async change(userId: string, id: string, decide: (node: NodeRecord) => Change | undefined): Promise<NodeView> {
    const { db, nodes, outbox, clock } = this.deps;
    const { node, moved } = await db.transaction(async (trx) => {
      const current = await nodes.findVisible(userId, id, trx);
      if (!current) throw notFound(id);
      if (IMAGES[current.image].purpose === 'validator') {
        throw new ConflictError(`node ${id} is a validator's node, which the staking service manages; it cannot be stopped, started or resized`);
      }
      const change = decide(current);
      if (!change) return { node: current, moved: false };
      const at = new Date(clock());
      const changed = change.to
        ? await nodes.transition(trx, id, { from: [current.state], to: change.to, startAfterStop: change.startAfterStop, large: change.large, at })
        : await nodes.setLarge(trx, id, [current.state], change.large ?? current.large, at);
      // The reconciler moved it in between: ask the caller to try again rather than guess.
      if (!changed) throw new ConflictError(`node ${id} changed meanwhile; try again`);
      if (change.to) await outbox.add(trx, [lifecycleMessage(change.to === 'stopping' ? 'node.stopping' : 'node.starting', changed)]);
      return { node: changed, moved: change.to !== undefined };
    });
    if (moved) this.deps.onChange();
    return toNodeView(node, this.deps.addresses);
  }
}

interface Change {
  to?: 'stopping' | 'provisioning';
  startAfterStop?: boolean;
  large?: boolean;
}
