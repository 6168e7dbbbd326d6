import type { SyncSubject } from '@cloud/sdk/browser';
import { nodeSyncWords } from '../status-words';

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

/**
 * How far the node is with its network, as its state allows (`@cloud/sdk` syncWords): a progress
 * bar and the heights while it runs; a stopped or failed node's last reading, and when it was
 * taken, with no bar; a node on a real network without peers, that it cannot sync.
 */
export function SyncProgress({ node, label, now }: { node: SyncSubject; label: string; now?: number }) {
  const words = nodeSyncWords(node, now);
  return (
    <span className="sync" data-sync={words.kind}>
      {words.progress !== undefined && <progress max={1} value={words.progress} aria-label={label} />}
      <span className={words.kind === 'live' ? undefined : 'muted'}>{words.text}</span>
      {words.hint && (
        <span className="sync-hint" role="note">
          {words.hint}
        </span>
      )}
    </span>
  );
}
