import { createLogger } from '@cloud/logging';
import { SnapshotLoader } from '../src';

describe('SnapshotLoader', () => {
  afterEach(() => jest.useRealTimers());

  it('tries again at once when triggered while it waits out a failed try (a bus that just connected)', async () => {
    // Issue 29, item 9: a revocation snapshot first read over HTTP from an accounts service not
    // listening yet backed off for seconds, and the bus connecting meanwhile waited for the backoff.
    jest.useFakeTimers();
    let tries = 0;
    let loaded = false;
    const loader = new SnapshotLoader({
      logger: createLogger({ service: 'cloud-test', level: 'silent' }),
      what: 'test snapshot',
      load: async () => {
        tries += 1;
        if (tries === 1) throw new Error('the peer is away');
        loaded = true;
      },
    });
    loader.trigger();
    await jest.advanceTimersByTimeAsync(0);
    expect(tries).toBe(1);
    // No timer moves: only the trigger can start the second try.
    loader.trigger();
    await jest.advanceTimersByTimeAsync(0);
    expect(tries).toBe(2);
    expect(loaded).toBe(true);
    // Loaded: the trigger is not owed another load.
    await jest.advanceTimersByTimeAsync(20_000);
    expect(tries).toBe(2);
    await loader.stop();
  });
});
