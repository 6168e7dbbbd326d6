import { InProcessBus } from '../src';
import { busContract } from './contract';
import { silentLogger } from './helpers';

busContract({
  transport: 'in-process',
  open: async (retry) => {
    // In one process every "instance" is the same bus, as every service of `npm start` shares it.
    const bus = new InProcessBus(silentLogger(), retry);
    return {
      instance: async () => bus,
      deadLetters: async () => bus.deadLetters('accounts.call-events').map((dead) => ({ ...dead })),
      close: () => bus.close(),
    };
  },
});
