import type { EndedCredentials } from '@cloud/sdk/browser';

/** What a password change or reset ended, in the words the profile and reset pages show. */
export function endedWords(ended: EndedCredentials): string {
  const keys =
    ended.clientKeys === 0
      ? 'the account had no client keys'
      : `${ended.clientKeys === 1 ? 'its client key was' : `its ${ended.clientKeys} client keys were`} deleted (programs that used one need a new key)`;
  return `Every other session and token of the account has ended, and ${keys}.`;
}
