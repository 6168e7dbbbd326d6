import { ProvisioningFailedError, WaitTimeoutError } from '../src';
import { waitUntilRunning, waitUntilStopped } from '../src/wait';

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

test('a node stopped while waiting for it to run ends the wait; waitUntilStopped answers it', async () => {
  const failure = await waitUntilRunning('node-1', states(['stopping'], ['stopped']).read, { intervalMs: 1 }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ProvisioningFailedError);
  expect(failure).toMatchObject({ message: 'node-1 failed: it is stopped; start it first' });
  const seen: string[] = [];
  await expect(
    waitUntilStopped('node-1', states(['running'], ['stopping'], ['stopped']).read, { intervalMs: 1, onState: (state) => seen.push(state) }),
  ).resolves.toMatchObject({
    state: 'stopped',
  });
  expect(seen).toEqual(['running', 'stopping', 'stopped']);
});

test('a restart passes through stopping and provisioning on its way to running', async () => {
  const { read } = states(['stopping'], ['provisioning'], ['running']);
  await expect(waitUntilRunning('node-1', read, { intervalMs: 1 })).resolves.toMatchObject({ state: 'running' });
});

test('waits through syncing, telling how far the node is each time', async () => {
  const sync = (progress: number, syncing = true) => ({ height: Math.round(progress * 300), bestKnownHeight: 300, progress, peers: 1, syncing });
  const records = [
    { state: 'provisioning', sync: null },
    { state: 'syncing', sync: sync(0) },
    { state: 'syncing', sync: sync(0.5) },
    { state: 'running', sync: sync(1, false) },
  ];
  let reads = 0;
  const read = async () => ({ id: 'node-1', stateReason: null, ...records[Math.min(reads++, records.length - 1)]! });
  const seen: Array<[string, number | undefined]> = [];
  const running = await waitUntilRunning('node-1', read, { intervalMs: 1, onState: (state, progress) => seen.push([state, progress?.progress]) });
  expect(running).toMatchObject({ state: 'running', sync: { height: 300, progress: 1, syncing: false } });
  expect(seen).toEqual([
    ['provisioning', undefined],
    ['syncing', 0],
    ['syncing', 0.5],
    ['running', 1],
  ]);
});
