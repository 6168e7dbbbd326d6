import { startProgress, syncLine } from '../src/progress';
import { captureOutput, TextSink } from './support/capture';

test('in a pipe: one plain line on err per change of text, nothing on out', async () => {
  const { o, out, err } = captureOutput();
  const progress = await startProgress(o, 'creating node-1', {});
  progress.update('node-1 is provisioning');
  progress.update('node-1 is provisioning');
  progress.update('node-1 is provisioning');
  progress.update('node-1 is starting');
  progress.succeed('node-1 is running');
  expect(err.text).toBe('creating node-1\nnode-1 is provisioning\nnode-1 is starting\nnode-1 is running\n');
  expect(out.text).toBe('');
});

test('a failure is one more line', async () => {
  const { o, err } = captureOutput();
  const progress = await startProgress(o, 'creating node-1', {});
  progress.fail('node-1 failed');
  expect(err.text).toBe('creating node-1\nnode-1 failed\n');
});

test('on a terminal in CI, a dumb one or one of 0 columns: plain lines too', async () => {
  const cases: Array<[NodeJS.ProcessEnv, number | undefined]> = [
    [{ CI: 'true' }, 80],
    [{ TERM: 'dumb' }, 80],
    [{}, 0],
  ];
  for (const [env, columns] of cases) {
    const err = Object.assign(new TextSink(true), { columns });
    const out = new TextSink();
    const progress = await startProgress({ json: false, out, err }, 'waiting', env);
    progress.succeed('done');
    expect(err.text).toBe('waiting\ndone\n');
    expect(out.text).toBe('');
  }
});

test('json mode: silent', async () => {
  const { o, out, err } = captureOutput(true);
  const progress = await startProgress(o, 'creating node-1', {});
  progress.update('node-1 is provisioning');
  progress.succeed('node-1 is running');
  progress.fail('node-1 failed');
  expect(err.text).toBe('');
  expect(out.text).toBe('');
});

/** What ora needs of a terminal beyond writing. */
class FakeTerminal extends TextSink {
  constructor() {
    super(true);
  }
  cursorTo(): boolean {
    return true;
  }
  moveCursor(): boolean {
    return true;
  }
  clearLine(): boolean {
    return true;
  }
}

test('on a terminal: a spinner on err that ends with the final text, nothing on out', async () => {
  const err = new FakeTerminal();
  const out = new TextSink();
  const progress = await startProgress({ json: false, out, err }, 'creating node-1', {});
  progress.update('node-1 is provisioning');
  progress.succeed('node-1 is running');
  expect(err.text).toContain('creating node-1');
  expect(err.text).toMatch(/node-1 is running\n$/);
  expect(out.text).toBe('');
});

test('a syncing node as a bar with its percentage, height and peers; what it does not say is left out', () => {
  expect(syncLine({ height: 75, bestKnownHeight: 300, progress: 0.25, peers: 1, syncing: true })).toBe('[#####---------------] 25.0% height 75/300, 1 peer');
  expect(syncLine({ height: 300, bestKnownHeight: 300, progress: 1, peers: 8, syncing: false })).toBe('[####################] 100.0% height 300/300, 8 peers');
  expect(syncLine({ height: null, bestKnownHeight: null, progress: 0, peers: null, syncing: true })).toBe('[--------------------] 0.0%');
});
