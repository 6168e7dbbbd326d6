import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@cloud/logging';
import type { ImageDefinition } from '@cloud/chains';
import type { SyncStatus } from '../../data-access/node-record';
import type { RpcTarget } from '../json-rpc';
import { syncReader } from '../sync-status';

/** A node's sync is read again at most this often (the local driver reads it at its 5 s liveness probe). */
export const SYNC_READ_EVERY_MS = 5_000;

interface Reading {
  /** The pod read: a new pod (a restart, a reschedule) is read afresh. */
  podUid: string;
  sync: SyncStatus | undefined;
  at: number;
  refreshing: boolean;
  /** The pod's first read, which every caller awaits (not only the one that started it). */
  first: Promise<void>;
}

/**
 * How far each running node is with its network, read from its pod's RPC by this service (the
 * node's NetworkPolicy admits it for that). The first reading of a pod is awaited, so a node that
 * is still syncing is never announced `running` first (`syncing` → `running` is one way); after
 * that a reading older than SYNC_READ_EVERY_MS is refreshed in the background and the last one
 * answers, so a reconcile pass over many nodes does not wait on their RPCs (a caller asking during
 * the first read waits for that one). A node that cannot be read keeps its last reading (its
 * `checkedAt` says how old); one never read reports none.
 */
export class SyncReadings {
  private readonly readings = new Map<string, Reading>();
  private readonly warned = new Set<string>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: () => number,
    private readonly timeoutMs: number,
  ) {}

  async read(nodeId: string, podUid: string, family: ImageDefinition['family'], rpc: RpcTarget): Promise<SyncStatus | undefined> {
    let reading = this.readings.get(nodeId);
    if (!reading || reading.podUid !== podUid) {
      const fresh: Reading = { podUid, sync: undefined, at: 0, refreshing: false, first: Promise.resolve() };
      fresh.first = this.refresh(nodeId, fresh, family, rpc, true);
      this.readings.set(nodeId, fresh);
      reading = fresh;
    }
    await reading.first;
    if (this.clock() - reading.at >= SYNC_READ_EVERY_MS && !reading.refreshing) {
      void this.refresh(nodeId, reading, family, rpc);
    }
    return reading.sync;
  }

  /** The node is gone, stopped or released: its next pod is read afresh. */
  forget(nodeId: string): void {
    this.readings.delete(nodeId);
    this.warned.delete(nodeId);
  }

  private async refresh(nodeId: string, reading: Reading, family: ImageDefinition['family'], rpc: RpcTarget, retry = false): Promise<void> {
    reading.refreshing = true;
    try {
      reading.sync = await this.readOnce(nodeId, family, rpc, retry);
      this.warned.delete(nodeId);
    } catch (error) {
      // Once per node until it answers again: a NetworkPolicy without this service's pods would otherwise log every pass.
      if (!this.warned.has(nodeId)) {
        this.warned.add(nodeId);
        this.logger.warn("cannot read the node's sync status at its RPC; is this service admitted by KUBE_NODES_POD_SELECTOR?", {
          nodeId,
          url: rpc.url,
          error,
        });
      }
    } finally {
      reading.at = this.clock();
      reading.refreshing = false;
    }
  }

  /**
   * One reading. `retry`: a pod's first reading, which the node's `running` waits for, is asked
   * again after a failure (a refused or dropped connection of a node just made ready) until the
   * read timeout is spent, so one transient failure does not leave a new pod unread for a whole
   * interval. Later readings are not retried: the next interval is their retry.
   */
  private async readOnce(nodeId: string, family: ImageDefinition['family'], rpc: RpcTarget, retry: boolean): Promise<SyncStatus> {
    // The cluster runs real networks only: a node there always has a network to catch up with.
    const read = syncReader(family, false);
    // Real time, not `clock`: the budget is the timeout's, which the clock (the interval's) does not drive.
    const deadline = performance.now() + this.timeoutMs;
    for (;;) {
      try {
        return await read(rpc, Math.max(1, deadline - performance.now()));
      } catch (error) {
        if (!retry || performance.now() + RETRY_AFTER_MS >= deadline) throw error;
        this.logger.debug("a new pod's first sync reading failed; asking again", { nodeId, url: rpc.url, error });
        await sleep(RETRY_AFTER_MS);
      }
    }
  }
}

/** How long a failed first reading waits before it asks again. */
const RETRY_AFTER_MS = 250;
