import type { Clock } from '@cloud/auth';
import type { Transaction } from '@cloud/db';
import type { ClientKeysRepository } from '../data-access/client-keys.repository';
import type { Revocations } from './revocations';

/** What a new password (changed or reset) or turning two-factor login on ends. */
export interface EndedCredentials {
  /** The user's client keys, deleted: programs that used them need a new one. */
  clientKeyIds: string[];
  /** Every account, client and refresh token issued before this moment stopped working. */
  tokensIssuedBefore: Date;
}

export interface StandingCredentialsDependencies {
  revocations: Revocations;
  keys: ClientKeysRepository;
  clock: Clock;
}

/**
 * Runs `change`, which raises (at `now`) the user's credentials version and resolves to the new one (or to
 * undefined when it changed nothing), and in the same transaction ends every standing credential
 * the old password could have made: the `revocation.credentials-changed` record and message revoke
 * every token issued before, here and at every service, and the user's client keys are deleted.
 * The keys must go too: a key mints its tokens at the user's current version, so one made by
 * whoever knew the old password would otherwise keep working.
 */
export async function endStandingCredentials(
  deps: StandingCredentialsDependencies,
  userId: string,
  change: (trx: Transaction, now: Date) => Promise<number | undefined>,
): Promise<EndedCredentials | undefined> {
  const now = new Date(deps.clock());
  const ended = await deps.revocations.revokeWith(
    async (trx) => {
      const credentialsVersion = await change(trx, now);
      if (credentialsVersion === undefined) return undefined;
      const clientKeyIds = await deps.keys.deleteAllOf(userId, trx);
      return { credentialsVersion, clientKeyIds };
    },
    ({ credentialsVersion }) => ({ kind: 'revocation.credentials-changed', payload: { userId, credentialsVersion } }),
  );
  return ended && { clientKeyIds: ended.clientKeyIds, tokensIssuedBefore: now };
}

/** The `ended` part of the answers of the routes that end standing credentials. */
export function toEndedAnswer(ended: EndedCredentials) {
  return { clientKeys: ended.clientKeyIds.length, clientKeyIds: ended.clientKeyIds, tokensIssuedBefore: ended.tokensIssuedBefore.toISOString() };
}

/** One sentence for the answers' `message` and the notice e-mail: what ended. */
export function describeEnded(ended: EndedCredentials): string {
  const keys = ended.clientKeyIds.length;
  const deleted =
    keys === 0
      ? 'there were no client keys to delete'
      : `${keys === 1 ? 'the 1 client key' : `all ${keys} client keys`} of the account ${keys === 1 ? 'was' : 'were'} deleted`;
  return `Every session and token issued before ${ended.tokensIssuedBefore.toISOString()} has ended, and ${deleted}.`;
}
