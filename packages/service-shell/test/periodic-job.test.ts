import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@cloud/logging';
import { PeriodicJob } from '../src';

/** A logger whose lines the test reads. */
function loggedLines() {
  const stream = new PassThrough();
  const lines: { level: string; message: string }[] = [];
  stream.on('data', (chunk: Buffer) =>
    lines.push(
      ...chunk
        .toString()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: string; message: string }),
    ),
  );
  return { logger: createLogger({ service: 'periodic-job-test', stream }), lines };
}

describe('PeriodicJob', () => {
  it('passes at start and every interval, a failed pass logged and tried again, until stopped', async () => {
    const { logger, lines } = loggedLines();
    let passes = 0;
    const job = new PeriodicJob({
      intervalMs: 20,
      logger,
      failure: 'tidying failed',
      pass: async () => {
        passes += 1;
        if (passes === 1) throw new Error('database away');
      },
    });
    job.start();
    while (passes < 3) await sleep(5);
    await job.stop();
    const stoppedAt = passes;
    await sleep(60);
    expect(passes).toBe(stoppedAt);
    expect(lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual(['tidying failed; trying again next interval']);
  });

  it('runs one pass at a time: a run during a pass waits for it, and stop waits for it too', async () => {
    const { logger } = loggedLines();
    let passes = 0;
    let finish: () => void = () => undefined;
    const job = new PeriodicJob({
      intervalMs: 60_000,
      logger,
      failure: 'tidying failed',
      pass: () => {
        passes += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    job.start();
    const during = job.run();
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await sleep(10);
    expect({ passes, stopped }).toEqual({ passes: 1, stopped: false });
    finish();
    await during;
    await stopping;
    expect({ passes, stopped }).toEqual({ passes: 1, stopped: true });
  });
});
