import type { Bus, Unsubscribe } from '@cloud/bus';
import type { Revocations } from '../../domain/revocations';

/** Answers services that (re)build their revocation set. */
export function serveRevocationSnapshots(bus: Bus, revocations: Revocations): Promise<Unsubscribe> {
  return bus.serve('revocations.snapshot', ({ after, limit }) => revocations.snapshot(after, limit));
}
