import type { EndedCredentials } from '@cloud/sdk';

/** What a new password or turning two-factor login on ended, for the notes after them. */
export function endedInWords(ended: EndedCredentials): string {
  const keys =
    ended.clientKeys === 0
      ? 'the account had no client keys'
      : `${ended.clientKeys === 1 ? 'its client key was' : `all ${ended.clientKeys} of its client keys were`} deleted (${ended.clientKeyIds.join(', ')})`;
  return `Every other session and token of the account has ended, and ${keys}.`;
}
