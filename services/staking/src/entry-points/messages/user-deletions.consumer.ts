import type { Bus, Unsubscribe } from '@cloud/bus';
import type { ValidatorsService } from '../../domain/validators';

/** Forgets the validators of every deleted user (`revocation.user-deleted`, from the accounts service). */
export function consumeUserDeletions(bus: Bus, validators: ValidatorsService): Promise<Unsubscribe> {
  return bus.subscribe({
    queue: 'staking.user-deletions',
    handle: async (messages) => {
      for (const each of messages) {
        if (each.kind === 'revocation.user-deleted') await validators.deleteAllOf(each.payload.userId);
      }
    },
  });
}
