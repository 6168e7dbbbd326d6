import { ProvisioningFailedError, WaitTimeoutError } from './errors';

export interface WaitOptions {
  /** Give up after this long; default 10 minutes (a real chain's node can take that to start). */
  timeoutMs?: number;
  /** Time between reads; default 1 s. */
  intervalMs?: number;
  /** Hears each state read, with how far the node is with its network when it says (`sync`), e.g. to show progress. */
  onState?: (state: string, sync?: SyncProgress | null) => void;
}

/** How far a node is with its network (a node's `sync`, see NodeSync). */
export interface SyncProgress {
  height: number | null;
  bestKnownHeight: number | null;
  progress: number;
  peers: number | null;
  syncing: boolean;
}

type Waitable = { state: string; stateReason: string | null; sync?: SyncProgress | null };

/**
 * Reads `read` until its state is `running` and answers that record, through `provisioning` and
 * `syncing` (it answers, but is still catching up with its network); ProvisioningFailedError when
 * it fails, is stopped or is being deleted, WaitTimeoutError when the time is up. A restarting
 * node passes through `stopping` and `provisioning` on its way.
 */
export function waitUntilRunning<T extends Waitable>(id: string, read: () => Promise<T>, options: WaitOptions = {}): Promise<T> {
  return waitForState(id, read, 'running', options);
}

/** Reads `read` until its state is `stopped` (after a stop); ProvisioningFailedError when it fails or is being deleted. */
export function waitUntilStopped<T extends Waitable>(id: string, read: () => Promise<T>, options: WaitOptions = {}): Promise<T> {
  return waitForState(id, read, 'stopped', options);
}

async function waitForState<T extends Waitable>(id: string, read: () => Promise<T>, wanted: 'running' | 'stopped', options: WaitOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await read();
    options.onState?.(record.state, record.sync);
    if (record.state === wanted) return record;
    if (record.state === 'failed') throw new ProvisioningFailedError(id, record.stateReason);
    if (record.state === 'deleting' || record.state === 'deleted') throw new ProvisioningFailedError(id, `it is being deleted (${record.state})`);
    // Stopped while waiting for it to run: nothing will start it again by itself.
    if (record.state === 'stopped') throw new ProvisioningFailedError(id, 'it is stopped; start it first');
    if (Date.now() >= deadline) throw new WaitTimeoutError(id, record.state, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, Math.min(options.intervalMs ?? 1000, Math.max(0, deadline - Date.now()))));
  }
}
