import type { WaitOptions } from '@cloud/sdk';
import type { Context } from '../context';
import { startProgress, syncLine } from '../progress';

/**
 * Waits for a node or validator to run (or, for a stop, to be stopped) while showing its state (a
 * spinner on a terminal, a line per change elsewhere), and while it syncs a progress bar with its
 * height and percentage; the SDK's errors (failed, timed out) end the command with their exit codes.
 */
export async function waitWithProgress<T>(
  ctx: Context,
  id: string,
  wait: (options: WaitOptions) => Promise<T>,
  timeoutSeconds: number,
  states: { from: string; to: string } = { from: 'provisioning', to: 'running' },
): Promise<T> {
  const progress = await startProgress(ctx.output, `${id}: ${states.from}`, ctx.io.env);
  try {
    const result = await wait({
      timeoutMs: timeoutSeconds * 1000,
      onState: (state, sync) => progress.update(`${id}: ${state}${state === 'syncing' && sync ? ` ${syncLine(sync)}` : ''}`),
    });
    progress.succeed(`${id}: ${states.to}`);
    return result;
  } catch (error) {
    progress.fail(`${id}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}
