import type { Bus, Unsubscribe } from '@cloud/bus';
import type { Reconciler } from '../../domain/reconciler';

/**
 * Wakes this instance's reconciler when any instance takes a provisioning, stop, start or deletion request,
 * so a new node is claimed at once rather than at the next periodic pass. Every instance hears
 * every request (broadcast); the leases decide which one acts.
 */
export function wakeReconcilerOnRequests(bus: Bus, reconciler: Reconciler): Promise<Unsubscribe> {
  return bus.subscribe({
    name: 'nodes.reconcile-wakeups',
    bindings: ['node.created', 'node.stopping', 'node.starting', 'node.deleting'],
    handle: () => {
      reconciler.wake();
      return Promise.resolve();
    },
    onSubscribed: () => reconciler.wake(),
  });
}
