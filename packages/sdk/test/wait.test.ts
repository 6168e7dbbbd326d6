import { ProvisioningFailedError, WaitTimeoutError } from '../src';
import { waitUntilRunning } from '../src/wait';

// waitUntilRunning's ends, on records read in turn (the walks cover it against the real services).

/** A reader that answers the given states one after another, then the last one forever. */
function states(...sequence: Array<[state: string, reason?: string]>) {
  let reads = 0;
  const read = async () => {
    const [state, reason] = sequence[Math.min(reads++, sequence.length - 1)]!;
    return { id: 'node-1', state, stateReason: reason ?? null };
  };
  return { read, reads: () => reads };
}

test('answers the record once it runs, telling each state read', async () => {
  const seen: string[] = [];
  const { read, reads } = states(['provisioning'], ['provisioning'], ['running']);
  await expect(waitUntilRunning('node-1', read, { intervalMs: 1, onState: (state) => seen.push(state) })).resolves.toMatchObject({ state: 'running' });
  expect(seen).toEqual(['provisioning', 'provisioning', 'running']);
  expect(reads()).toBe(3);
});

test('a failed node ends the wait with its reason', async () => {
  const { read } = states(['provisioning'], ['failed', 'litecoind exited with code 1']);
  const failure = await waitUntilRunning('node-1', read, { intervalMs: 1 }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ProvisioningFailedError);
  expect(failure).toMatchObject({ id: 'node-1', reason: 'litecoind exited with code 1', message: 'node-1 failed: litecoind exited with code 1' });
});

test('a node being deleted ends the wait too', async () => {
  const { read } = states(['deleting']);
  await expect(waitUntilRunning('node-1', read, { intervalMs: 1 })).rejects.toBeInstanceOf(ProvisioningFailedError);
});

test('gives up after the timeout, naming the last state', async () => {
  const { read, reads } = states(['provisioning']);
  const failure = await waitUntilRunning('node-1', read, { intervalMs: 5, timeoutMs: 30 }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(WaitTimeoutError);
  expect(failure).toMatchObject({ id: 'node-1', lastState: 'provisioning', message: 'node-1 is still provisioning after 0 s' });
  expect(reads()).toBeGreaterThan(1);
});
