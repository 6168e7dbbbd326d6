import type { Registration } from '@cloud/sdk/browser';
import { Fragment } from 'react';
import { registrationText } from '../status-words';

/** nAVAX (a decimal string) in AVAX. */
function avax(nAvax: string | undefined): string | null {
  if (!nAvax) return null;
  return `${(Number(BigInt(nAvax) / 1_000_000n) / 1000).toLocaleString()} AVAX`;
}

export function RegistrationStatus({ registration }: { registration: Registration }) {
  const { words, reason } = registrationText(registration);
  return (
    <span data-registration={registration.status}>
      {words}
      {reason && <span className="reason"> {reason}</span>}
    </span>
  );
}

export function RegistrationFacts({ registration }: { registration: Registration }) {
  const facts: [string, string | null][] = [
    ['Registered by', registration.txId ?? null],
    ['Staking from', registration.startTime ? new Date(registration.startTime).toLocaleString() : null],
    ['Staking until', registration.endTime ? new Date(registration.endTime).toLocaleString() : null],
    ['Own stake', avax(registration.stake)],
    ['Delegated', avax(registration.delegatedWeight)],
    ['Weight', avax(registration.weight)],
    ['Uptime', registration.uptime === undefined ? null : `${registration.uptime}%`],
    ['Connected', registration.connected === undefined ? null : registration.connected ? 'yes' : 'no'],
    ['Read from the P-chain', new Date(registration.checkedAt).toLocaleString()],
  ];
  return (
    <>
      {facts
        .filter((fact): fact is [string, string] => fact[1] !== null)
        .map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
    </>
  );
}
