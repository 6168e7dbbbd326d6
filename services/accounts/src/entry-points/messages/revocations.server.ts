import type { Bus } from '@cloud/bus';
import type { Revocations } from '../../domain/revocations';

/** Answers services that (re)build their revocation set. */
export function serveRevocationSnapshots(bus: Bus, revocations: Revocations): Promise<void> {
  return bus.serve('revocations.snapshot', () => revocations.snapshot());
}
