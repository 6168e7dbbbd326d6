export { connectDatabase, openServiceDatabase, pingDatabase } from './connect';
export type { Database, DatabaseLogger, DatabaseOptions, Executor, ServiceDatabaseSettings, Transaction } from './connect';
export { migrateDownAll, migrateToLatest } from './migrations';
export type { Migration } from './migrations';
