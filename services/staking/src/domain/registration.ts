import type { ChainValidator } from '../data-access/p-chain.client';
import type { ObservedRegistration } from '../data-access/validator-record';

/**
 * Where the validator stands on the P-chain: `unregistered` (never seen there), `pending`
 * (registered, its start time still to come), `validating`, `ended` (seen before, gone from the
 * list and past its end), `starting` (its node is provisioning or bootstrapping, so the chain is
 * not read yet; `reason` says which), or `unknown` (the chain could not be read through the node;
 * `reason` says why).
 */
export type RegistrationStatus = 'unregistered' | 'pending' | 'validating' | 'ended' | 'starting' | 'unknown';

export interface Registration {
  status: RegistrationStatus;
  /** When the chain was read (or tried). */
  checkedAt: string;
  txId?: string;
  startTime?: string;
  endTime?: string;
  /** Own stake, nAVAX. */
  stake?: string;
  /** Stake delegated to the validator, nAVAX. */
  delegatedWeight?: string;
  /** Own stake plus delegated stake, nAVAX. */
  weight?: string;
  /** Percent. */
  uptime?: number;
  connected?: boolean;
  reason?: string;
}

/** What asking the node gave: the P-chain's listing of the validator (null: not listed), or why there is none. */
export type ChainAnswer = { checkedAt: Date } & ({ listed: ChainValidator | null } | { unreadable: string });

/** The registration the P-chain's answer shows, as it is kept (`ObservedRegistration`). */
export function observationOf(listed: ChainValidator, at: Date): ObservedRegistration {
  return { txId: listed.txId, startTime: listed.startTime, endTime: listed.endTime, stake: listed.stake, observedAt: at };
}

export function sameRegistration(a: ObservedRegistration | null, b: ObservedRegistration): boolean {
  return !!a && a.txId === b.txId && a.startTime.getTime() === b.startTime.getTime() && a.endTime.getTime() === b.endTime.getTime() && a.stake === b.stake;
}

/**
 * The status of a validator from its node's answer, the registration last observed (kept across
 * answers: the chain drops a validator from its list once it has ended), and the time now.
 */
export function registrationOf(answer: ChainAnswer, observed: ObservedRegistration | null, now: Date): Registration {
  const checkedAt = answer.checkedAt.toISOString();
  if ('unreadable' in answer) return { status: 'unknown', checkedAt, ...factsOf(observed), reason: answer.unreadable };
  const { listed } = answer;
  if (listed) {
    return {
      status: listed.startTime.getTime() > now.getTime() ? 'pending' : 'validating',
      checkedAt,
      txId: listed.txId,
      startTime: listed.startTime.toISOString(),
      endTime: listed.endTime.toISOString(),
      stake: listed.stake,
      delegatedWeight: listed.delegatedWeight,
      weight: (BigInt(listed.stake) + BigInt(listed.delegatedWeight)).toString(),
      ...(listed.uptime === undefined ? {} : { uptime: listed.uptime }),
      ...(listed.connected === undefined ? {} : { connected: listed.connected }),
    };
  }
  if (!observed) return { status: 'unregistered', checkedAt };
  if (observed.endTime.getTime() <= now.getTime()) return { status: 'ended', checkedAt, ...factsOf(observed) };
  // Seen registered until a time still to come, yet not listed: the node is behind (resynced from
  // scratch, say), not the chain changed its mind; a registration cannot be undone.
  return {
    status: 'unknown',
    checkedAt,
    ...factsOf(observed),
    reason: `the node no longer lists the registration seen at ${observed.observedAt.toISOString()}, which runs until ${observed.endTime.toISOString()}; it may be out of sync`,
  };
}

/**
 * A validator whose node is coming up (`provisioning`, or `syncing`: bootstrapping): the chain is
 * read once it runs. What an earlier reading saw is kept, as for `unknown`.
 */
export function startingRegistration(reason: string, observed: ObservedRegistration | null, checkedAt: Date): Registration {
  return { status: 'starting', checkedAt: checkedAt.toISOString(), ...factsOf(observed), reason };
}

// What a registration fixes for good: kept from the last observation when the chain cannot say more.
function factsOf(observed: ObservedRegistration | null): Partial<Registration> {
  if (!observed) return {};
  return { txId: observed.txId, startTime: observed.startTime.toISOString(), endTime: observed.endTime.toISOString(), stake: observed.stake };
}
