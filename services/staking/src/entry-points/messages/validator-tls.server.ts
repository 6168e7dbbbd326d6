import type { Bus, Unsubscribe } from '@cloud/bus';
import type { ValidatorsService } from '../../domain/validators';

/**
 * Answers the nodes service's driver (`staking.validator-tls`): the staking certificate and key a
 * validator's node starts with. The key is decrypted only here, only for the answer; an unknown
 * or deleted validator is an error.
 */
export function serveValidatorTls(bus: Bus, validators: ValidatorsService): Promise<Unsubscribe> {
  return bus.serve('staking.validator-tls', ({ nodeId }) => validators.stakingTls(nodeId));
}
