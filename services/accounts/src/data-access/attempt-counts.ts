import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Database } from '@cloud/db';

/**
 * Where attempt counts are kept. A PostgreSQL database (table `login_throttle` of the service
 * schema) shares them between replicas; without one they live in this process, which is exact for
 * the embedded default's single process. (PGlite can't serve the limiter's prepared statements.)
 */
export interface LimitStore {
  postgres?: { db: Database; schema: string };
}

/** A limiter over `options.points` per window in `store`. */
export function createLimiter(store: LimitStore, options: { name: string; points: number; windowSeconds: number; blockSeconds?: number }): RateLimiterAbstract {
  const common = { keyPrefix: options.name, points: options.points, duration: options.windowSeconds, blockDuration: options.blockSeconds ?? 0 };
  if (!store.postgres) return new RateLimiterMemory(common);
  const { db, schema } = store.postgres;
  return new RateLimiterPostgres({ ...common, storeClient: db, storeType: 'knex', schemaName: schema, tableName: 'login_throttle', tableCreated: true });
}

/**
 * Keys come from requests (a login may be any string): long ones or ones with bytes PostgreSQL
 * refuses (NUL) are stored as their SHA-256, so a key never breaks the store's 255-character column.
 */
export function storeKey(key: string): string {
  return /^[\x21-\x7e]{1,128}$/.test(key) ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}
