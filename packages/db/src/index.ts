export { connectDatabase, pingDatabase } from './connect';
export type { Database, DatabaseOptions, Executor, Transaction } from './connect';
export { migrateDownAll, migrateToLatest } from './migrations';
export type { Migration } from './migrations';
