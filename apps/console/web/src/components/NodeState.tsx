import type { NodeSync } from '@cloud/sdk/browser';

const WORDS: Record<string, string> = {
  provisioning: 'Starting',
  syncing: 'Syncing',
  running: 'Running',
  failed: 'Failed',
  stopping: 'Stopping',
  stopped: 'Stopped',
  deleting: 'Deleting',
  deleted: 'Deleted',
};

/** A node's state in words, with a class for its colour (the word carries the meaning, not the colour). */
export function StateBadge({ state }: { state: string }) {
  return (
    <span className={`state state-${state}`} data-state={state}>
      {WORDS[state] ?? state}
    </span>
  );
}

/** How far the node is with its network: a progress bar and the heights. */
export function SyncProgress({ sync, label }: { sync: NodeSync | null | undefined; label: string }) {
  if (!sync) return <span className="muted">not reported yet</span>;
  const percent = Math.floor(sync.progress * 1000) / 10;
  const heights = sync.height === null ? '' : ` · block ${sync.height}${sync.bestKnownHeight !== null ? ` of ${sync.bestKnownHeight}` : ''}`;
  return (
    <span className="sync">
      <progress max={1} value={sync.progress} aria-label={label} />
      <span>
        {percent}%{heights}
      </span>
    </span>
  );
}
