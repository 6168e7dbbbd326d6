import { ProvisioningFailedError, WaitTimeoutError } from './errors';

export interface WaitOptions {
  /** Give up after this long; default 10 minutes (a real chain's node can take that to start). */
  timeoutMs?: number;
  /** Time between reads; default 1 s. */
  intervalMs?: number;
  /** Hears each state read, e.g. to show progress. */
  onState?: (state: string) => void;
}

/**
 * Reads `read` until its state is `running` and answers that record; ProvisioningFailedError when
 * it fails or is being deleted, WaitTimeoutError when the time is up.
 */
export async function waitUntilRunning<T extends { state: string; stateReason: string | null }>(
  id: string,
  read: () => Promise<T>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await read();
    options.onState?.(record.state);
    if (record.state === 'running') return record;
    if (record.state === 'failed') throw new ProvisioningFailedError(id, record.stateReason);
    if (record.state === 'deleting' || record.state === 'deleted') throw new ProvisioningFailedError(id, `it is being deleted (${record.state})`);
    if (Date.now() >= deadline) throw new WaitTimeoutError(id, record.state, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, Math.min(options.intervalMs ?? 1000, Math.max(0, deadline - Date.now()))));
  }
}
