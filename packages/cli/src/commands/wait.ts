import type { WaitOptions } from '@cloud/sdk';
import type { Context } from '../context';
import { startProgress } from '../progress';

/**
 * Waits for a node or validator to run while showing its state (a spinner on a terminal, a line
 * per change elsewhere); the SDK's errors (failed, timed out) end the command with their exit codes.
 */
export async function waitWithProgress<T>(ctx: Context, id: string, wait: (options: WaitOptions) => Promise<T>, timeoutSeconds: number): Promise<T> {
  const progress = await startProgress(ctx.output, `${id}: provisioning`, ctx.io.env);
  try {
    const result = await wait({
      timeoutMs: timeoutSeconds * 1000,
      onState: (state) => progress.update(`${id}: ${state}`),
    });
    progress.succeed(`${id}: running`);
    return result;
  } catch (error) {
    progress.fail(`${id}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}
