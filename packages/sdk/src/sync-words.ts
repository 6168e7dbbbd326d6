// A node's sync in words, by its state: what the CLI prints and the web console shows (pure and
// browser-safe, `@cloud/sdk/browser`). A node that runs shows its reading as live progress; a
// node that does not (stopped, failed, starting again) shows its last reading as such, with when
// it was taken, never as a live-looking "100 %"; a node on a real network with no peers says it
// cannot sync until it finds some.

/** What a node last reported of its sync (a node record's `sync`). */
export interface SyncReading {
  height: number | null;
  bestKnownHeight: number | null;
  progress: number;
  peers: number | null;
  syncing: boolean;
  /** When the node was asked (ISO 8601). */
  checkedAt: string;
}

/** The fields of a node record its sync words depend on. */
export interface SyncSubject {
  state: string;
  image: string;
  dev: boolean;
  createdAt: string;
  sync: SyncReading | null;
}

export interface SyncWords {
  /** `live`: the node runs and this is its reading; `last`: a reading from before it stopped or failed; `none`: nothing reported. */
  kind: 'live' | 'last' | 'none';
  /** One line: `42.5% · block 39 of 92 · 3 peers`, `stopped: last known block 39 of 39, as of …`, `not reported yet (starting)`. */
  text: string;
  /** From 0 to 1, to draw as a bar: only for a live reading. */
  progress?: number;
  /** Something the person should know: a node on a real network without peers cannot sync. */
  hint?: string;
}

export interface SyncWordsOptions {
  /** The time now (ms since the epoch); default Date.now(). */
  now?: number;
  /** How a time is shown (an ISO 8601 string in); default: as given. */
  time?: (iso: string) => string;
}

/** How long a node on a real network may look for peers before it is said to have none. */
export const NO_PEERS_GRACE_MS = 2 * 60_000;

/** States in which the node answers, so its reading is live. */
const LIVE_STATES = new Set(['syncing', 'running']);

/** How a state is said before a last reading: `stopped: last known …`. */
const NOT_LIVE_WORDS: Record<string, string> = {
  provisioning: 'starting',
  stopping: 'stopping',
  stopped: 'stopped',
  failed: 'failed',
  deleting: 'being deleted',
};

/** `42.5%`: tenths, never rounded up to 100 while still short of it. */
export function syncPercent(progress: number): string {
  const bounded = Number.isFinite(progress) ? Math.min(Math.max(progress, 0), 1) : 0;
  return `${Math.floor(bounded * 1000) / 10}%`;
}

/** `block 39 of 92`, `block 39`, or '' for a node with no single height. */
function heights(sync: SyncReading): string {
  if (sync.height === null) return '';
  return `block ${sync.height}${sync.bestKnownHeight !== null ? ` of ${sync.bestKnownHeight}` : ''}`;
}

/** The setting that names an image's only peers on a self-hosted platform: `LTC_PEERS`. */
export function peersSetting(image: string): string {
  return `${image.toUpperCase()}_PEERS`;
}

/** The node's sync in words, as its state allows. */
export function syncWords(node: SyncSubject, options: SyncWordsOptions = {}): SyncWords {
  const now = options.now ?? Date.now();
  const time = options.time ?? ((iso: string) => iso);
  const { sync } = node;
  const live = LIVE_STATES.has(node.state);
  if (!live) {
    const said = NOT_LIVE_WORDS[node.state] ?? node.state;
    if (!sync) return { kind: 'none', text: node.state === 'provisioning' ? 'not reported yet (starting)' : `${said}: no reading` };
    const where = heights(sync) || `${syncPercent(sync.progress)} synced`;
    return { kind: 'last', text: `${said}: last known ${where}, as of ${time(sync.checkedAt)}` };
  }
  if (!sync) return { kind: 'none', text: 'not reported yet' };
  const parts = [syncPercent(sync.progress), heights(sync), sync.peers === null ? '' : `${sync.peers} ${sync.peers === 1 ? 'peer' : 'peers'}`].filter(Boolean);
  const words: SyncWords = { kind: 'live', text: parts.join(' · '), progress: sync.progress };
  // A dev chain is the node's own (or its configured peers'): no peers is how it is meant to be.
  if (sync.peers === 0 && !node.dev) {
    const looking = now - Date.parse(node.createdAt) < NO_PEERS_GRACE_MS;
    words.hint = looking
      ? 'looking for peers: it syncs once it finds some'
      : `no peers: it cannot sync until it finds some (check ${peersSetting(node.image)} / the network)`;
  }
  return words;
}
