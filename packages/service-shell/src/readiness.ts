import { pingDatabase, type Database } from '@cloud/db';
import type { ReadinessCheck } from '@cloud/http';

/** Something that throws (or rejects) while it cannot serve: the bus, the revocation set, the key resolver. */
export interface ReadinessProbe {
  checkReady(): Promise<void> | void;
}

export interface ApiReadinessDependencies {
  db: Database;
  bus: ReadinessProbe;
  /** For a service that verifies client tokens: the revocation set and the accounts service's keys. */
  tokens?: { revocations: ReadinessProbe; keys: ReadinessProbe };
}

/** The `/readyz` checks of an API service (decision 020). */
export function apiReadiness({ db, bus, tokens }: ApiReadinessDependencies): ReadinessCheck[] {
  return [
    { name: 'database', check: () => pingDatabase(db) },
    // The outbox keeps what is published meanwhile: serving goes on without the broker (decision 020).
    { name: 'message bus', degradable: true, check: () => bus.checkReady() },
    ...(tokens
      ? [
          { name: 'token revocations', check: () => tokens.revocations.checkReady() },
          // Unready until the accounts service's keys are read once, as without the revocations: no token can be checked (decision 020).
          { name: 'token signing keys', check: () => tokens.keys.checkReady() },
        ]
      : []),
  ];
}
