/**
 * Progress of a long step (waiting for a node to run). On a terminal, a spinner on stderr; in a
 * pipe or CI, plain lines on stderr, one per change of text so a poll loop does not repeat
 * itself; with --json, nothing. Never on stdout, which is for results.
 */
import type { Output } from './output';

export interface Progress {
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
}

export async function startProgress(o: Output, text: string, env: NodeJS.ProcessEnv = process.env): Promise<Progress> {
  if (o.json) return { update() {}, succeed() {}, fail() {} };
  const { isTTY, columns } = o.err as { isTTY?: boolean; columns?: number };
  // ora never stops clearing lines on a terminal of 0 columns (a pseudo-terminal nobody sized).
  const interactive = isTTY === true && columns !== 0 && !env.CI && env.TERM !== 'dumb';
  if (interactive) {
    // ora is ES-module only; import() loads it from this CommonJS build.
    const { default: ora } = await import('ora');
    const spinner = ora({ text, stream: o.err, isEnabled: true }).start();
    return {
      update: (next) => void (spinner.text = next),
      succeed: (next) => void spinner.succeed(next),
      fail: (next) => void spinner.fail(next),
    };
  }
  let last: string | undefined;
  const line = (next: string): void => {
    if (next === last) return;
    last = next;
    o.err.write(`${next}\n`);
  };
  line(text);
  return { update: line, succeed: line, fail: line };
}
