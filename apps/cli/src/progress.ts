/**
 * Progress of a long step (waiting for a node to run). On a terminal, a spinner on stderr; in a
 * pipe or CI, plain lines on stderr, one per change of text so a poll loop does not repeat
 * itself; with --json, nothing. Never on stdout, which is for results.
 */
import type { SyncProgress } from '@cloud/sdk';
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

const BAR_WIDTH = 20;

/**
 * How far a syncing node is, in one line: `[#####---------------] 25.0% height 75/300, 1 peer`.
 * Heights and peers are left out when the node does not say them.
 */
export function syncLine(sync: SyncProgress): string {
  const filled = Math.round(Math.min(Math.max(sync.progress, 0), 1) * BAR_WIDTH);
  const parts = [`[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(sync.progress * 100).toFixed(1)}%`];
  if (sync.height !== null) parts.push(`height ${sync.height}${sync.bestKnownHeight !== null ? `/${sync.bestKnownHeight}` : ''}`);
  const detail = sync.peers === null ? '' : `, ${sync.peers} ${sync.peers === 1 ? 'peer' : 'peers'}`;
  return `${parts.join(' ')}${detail}`;
}
