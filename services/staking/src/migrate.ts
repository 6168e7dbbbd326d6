// Applies the staking schema's migrations and exits (`npm run migrate -w services/staking`), for
// deployments that run migrations as a job rather than at start.
import { runMigrateCommand } from '@cloud/service-shell';
import { STAKING_SERVICE_NAME } from './app';
import { loadStakingConfig } from './config';
import { stakingMigrations, STAKING_SCHEMA } from './migrations';

runMigrateCommand({
  name: 'staking',
  logAs: STAKING_SERVICE_NAME,
  loadConfig: loadStakingConfig,
  owned: { schema: STAKING_SCHEMA, migrations: stakingMigrations },
});
