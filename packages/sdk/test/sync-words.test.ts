import { NO_PEERS_GRACE_MS, syncPercent, syncWords, type SyncSubject } from '../src/sync-words';

const created = '2026-11-27T10:00:00.000Z';
const checkedAt = '2026-11-27T10:05:00.000Z';
const later = Date.parse(created) + NO_PEERS_GRACE_MS + 60_000;
const synced = { height: 39, bestKnownHeight: 39, progress: 1, peers: 0, syncing: false, checkedAt };
const ltc = (state: string, sync: SyncSubject['sync'], dev = true): SyncSubject => ({ state, image: 'ltc', dev, createdAt: created, sync });

describe('sync words', () => {
  it('show a running node its live reading', () => {
    expect(syncWords(ltc('running', synced), { now: later })).toEqual({ kind: 'live', text: '100% · block 39 of 39 · 0 peers', progress: 1 });
    expect(syncWords(ltc('syncing', { ...synced, height: 75, bestKnownHeight: 300, progress: 0.25, peers: 1, syncing: true }, false), { now: later })).toEqual({
      kind: 'live',
      text: '25% · block 75 of 300 · 1 peer',
      progress: 0.25,
    });
  });

  it('never show a stopped node as live: its last known height, and as of when', () => {
    const stopped = syncWords(ltc('stopped', synced), { now: later, time: (iso) => `<${iso}>` });
    expect(stopped).toEqual({ kind: 'last', text: `stopped: last known block 39 of 39, as of <${checkedAt}>` });
    expect(stopped.text).not.toMatch(/100/);
    expect(syncWords(ltc('failed', synced)).text).toBe(`failed: last known block 39 of 39, as of ${checkedAt}`);
    expect(syncWords(ltc('provisioning', synced)).text).toBe(`starting: last known block 39 of 39, as of ${checkedAt}`);
    expect(syncWords(ltc('stopping', { ...synced, height: null, bestKnownHeight: null })).text).toBe(`stopping: last known 100% synced, as of ${checkedAt}`);
    expect(syncWords(ltc('stopped', null))).toEqual({ kind: 'none', text: 'stopped: no reading' });
    expect(syncWords(ltc('provisioning', null))).toEqual({ kind: 'none', text: 'not reported yet (starting)' });
  });

  it('tell that a node on a real network with no peers cannot sync, after a while of looking', () => {
    const stuck = ltc('syncing', { height: 0, bestKnownHeight: 0, progress: 0, peers: 0, syncing: true, checkedAt }, false);
    expect(syncWords(stuck, { now: Date.parse(created) + 10_000 }).hint).toBe('looking for peers: it syncs once it finds some');
    expect(syncWords(stuck, { now: later })).toEqual({
      kind: 'live',
      text: '0% · block 0 of 0 · 0 peers',
      progress: 0,
      hint: 'no peers: it cannot sync until it finds some (check LTC_PEERS / the network)',
    });
    // A dev chain is its own: no peers is as it should be. Peers not said: nothing to tell.
    expect(syncWords({ ...stuck, dev: true }, { now: later }).hint).toBeUndefined();
    expect(syncWords(ltc('syncing', { ...stuck.sync!, peers: null }, false), { now: later }).hint).toBeUndefined();
  });

  it('never round a node short of its tip up to 100%', () => {
    expect(syncPercent(0.9999)).toBe('99.9%');
    expect(syncPercent(Number.NaN)).toBe('0%');
  });
});
