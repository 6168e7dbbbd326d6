import type { Context } from '../src/context';
import { waitWithProgress } from '../src/commands/wait';
import { captureOutput } from './support/capture';

test('--wait shows a syncing node as a progress bar with its height and percentage, then running', async () => {
  const { o, out, err } = captureOutput();
  const ctx = { output: o, io: { env: {} } } as unknown as Context;
  const sync = (height: number, syncing = true) => ({ height, bestKnownHeight: 300, progress: height / 300, peers: 1, syncing });
  const result = await waitWithProgress(
    ctx,
    'node-1',
    async ({ onState }) => {
      onState?.('provisioning', null);
      onState?.('syncing', sync(0));
      onState?.('syncing', sync(150));
      onState?.('running', sync(300, false));
      return 'the node';
    },
    60,
  );
  expect(result).toBe('the node');
  expect(err.text.split('\n')).toEqual([
    'node-1: provisioning',
    'node-1: syncing [--------------------] 0.0% height 0/300, 1 peer',
    'node-1: syncing [##########----------] 50.0% height 150/300, 1 peer',
    'node-1: running',
    '',
  ]);
  expect(out.text).toBe('');
});
