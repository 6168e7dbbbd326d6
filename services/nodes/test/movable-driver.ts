import type { ChainOption, NodeDriver, NodeSpec, NodeStatus } from '../src';
import type { SyncStatus } from '../src/data-access/node-record';

/**
 * A driver that runs nothing: a node it ensures runs at `url`, which a test changes to move the
 * node (as another instance or another port would), or fails with `failure` once that is set;
 * it reports `sync` as the node's sync status when that is set.
 */
export class MovableDriver implements NodeDriver {
  readonly name = 'local';
  failure: string | undefined;
  sync: SyncStatus | undefined;
  private readonly ensured = new Set<string>();

  constructor(public url: string) {}

  chains(): Promise<ChainOption[]> {
    return Promise.resolve([{ image: 'eth', chain: 'eth', network: 'mainnet', software: 'movable-0.0.1', dev: true, pruned: false }]);
  }

  ensure(node: NodeSpec): Promise<void> {
    this.ensured.add(node.id);
    return Promise.resolve();
  }

  status(nodeId: string): Promise<NodeStatus> {
    if (!this.ensured.has(nodeId)) return Promise.resolve({ state: 'absent' });
    if (this.failure !== undefined) return Promise.resolve({ state: 'failed', reason: this.failure });
    return Promise.resolve({ state: 'running', endpoint: { url: this.url }, ...(this.sync ? { sync: this.sync } : {}) });
  }

  release(nodeId: string): Promise<void> {
    this.ensured.delete(nodeId);
    return Promise.resolve();
  }

  stop(nodeId: string): Promise<void> {
    return this.release(nodeId);
  }

  destroy(nodeId: string): Promise<void> {
    return this.release(nodeId);
  }

  logs(): Promise<string[]> {
    return Promise.resolve([]);
  }

  close(): Promise<void> {
    this.ensured.clear();
    return Promise.resolve();
  }
}
