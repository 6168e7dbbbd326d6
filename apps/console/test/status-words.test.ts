import { nodeSyncWords, REGISTRATION_WORDS, registrationText } from '../web/src/status-words';

// The words of the node and validator pages' status panels (the nodes list's Sync column too).

const createdAt = new Date(Date.now() - 3_600_000).toISOString();
const checkedAt = '2026-11-27T10:05:00.000Z';
const synced = { height: 39, bestKnownHeight: 39, progress: 1, peers: 0, syncing: false, checkedAt };

describe('sync panel words', () => {
  it('a running node: live progress with a bar', () => {
    expect(nodeSyncWords({ state: 'running', image: 'ltc', dev: true, createdAt, sync: synced })).toEqual({
      kind: 'live',
      text: '100% · block 39 of 39 · 0 peers',
      progress: 1,
    });
  });

  it('a stopped node: no bar and no live-looking 100 %, its last known height as of when (in the browser locale)', () => {
    const words = nodeSyncWords({ state: 'stopped', image: 'ltc', dev: true, createdAt, sync: synced });
    expect(words).toEqual({ kind: 'last', text: `stopped: last known block 39 of 39, as of ${new Date(checkedAt).toLocaleString()}` });
    expect(words.progress).toBeUndefined();
  });

  it('a public node with 0 peers for a while: a hint that it cannot sync, naming the setting to check', () => {
    const words = nodeSyncWords({
      state: 'syncing',
      image: 'btctestnet',
      dev: false,
      createdAt,
      sync: { ...synced, height: 0, bestKnownHeight: 0, progress: 0, syncing: true },
    });
    expect(words.text).toBe('0% · block 0 of 0 · 0 peers');
    expect(words.hint).toBe('no peers: it cannot sync until it finds some (check BTCTESTNET_PEERS / the network)');
  });
});

describe('registration words', () => {
  it('a new validator reads starting, plainly, not unknown', () => {
    const text = registrationText({ status: 'starting', reason: 'its node is provisioning; the P-chain is read once it runs' });
    expect(text).toEqual({ words: 'Starting: the P-chain is read once its node runs', reason: '(its node is provisioning; the P-chain is read once it runs)' });
    expect(text.words).not.toMatch(/unknown|could not/i);
  });

  it('every status has words', () => {
    expect(Object.keys(REGISTRATION_WORDS).sort()).toEqual(['ended', 'pending', 'starting', 'unknown', 'unregistered', 'validating']);
    expect(registrationText({ status: 'validating' })).toEqual({ words: 'Validating' });
  });
});
