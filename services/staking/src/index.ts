export { createStakingApp, STAKING_SERVICE_NAME } from './app';
export type { StakingApp, StakingAppDependencies } from './app';
export { loadStakingConfig, stakingEnvironment } from './config';
export type { StakingConfig } from './config';
export { createStakingService } from './service';
export type { StakingService, StakingServiceOptions } from './service';
export { stakingMigrations, STAKING_SCHEMA } from './migrations';
export { stakingOpenApiDocument } from './entry-points/http/openapi';
