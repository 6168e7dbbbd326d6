import { syncWords, type Registration, type SyncSubject, type SyncWords } from '@cloud/sdk/browser';

// The words of the console's status panels, apart from the components that show them so they can
// be tested: a node's sync as its state allows, and a validator's registration on the P-chain.

/** A node's sync in the SDK's words (live progress, or the last reading of a node that does not run), times in the browser's locale. */
export function nodeSyncWords(node: SyncSubject, now?: number): SyncWords {
  return syncWords(node, { now, time: (iso) => new Date(iso).toLocaleString() });
}

/** What each registration status means, in words. */
export const REGISTRATION_WORDS: Record<Registration['status'], string> = {
  unregistered: 'Not registered on the P-chain',
  pending: 'Registered; its staking period has not started',
  validating: 'Validating',
  ended: 'Its staking period has ended',
  starting: 'Starting: the P-chain is read once its node runs',
  unknown: 'Unknown: the P-chain could not be read',
};

/** The status in words, and why when the API says (a starting or unknown status). */
export function registrationText(registration: Pick<Registration, 'status' | 'reason'>): { words: string; reason?: string } {
  const words = REGISTRATION_WORDS[registration.status] ?? registration.status;
  return registration.reason ? { words, reason: `(${registration.reason})` } : { words };
}
