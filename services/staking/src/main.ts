// Runs the staking service alone, configured by the environment (`npm start -w services/staking`).
import { runApiService } from '@cloud/service-shell';
import { loadStakingConfig } from './config';
import { createStakingService } from './service';

runApiService({
  name: 'staking',
  async start() {
    const config = loadStakingConfig();
    return { service: await createStakingService(config), port: config.STAKING_PORT, host: config.STAKING_HOST };
  },
});
