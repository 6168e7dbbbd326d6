export { runApiService, runMigrateCommand } from './entry-points';
export type { ApiService, ApiServiceMain, MigrateCommand, ShutdownBounds } from './entry-points';
export { apiReadiness } from './readiness';
export type { ApiReadinessDependencies, ReadinessProbe } from './readiness';
export { migrateServiceDatabase, openDatabaseAtStart } from './service-database';
export type { ServiceSchema, StartDatabaseSettings } from './service-database';
export { PeriodicJob } from './periodic-job';
export type { PeriodicJobOptions } from './periodic-job';
