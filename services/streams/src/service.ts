import { hostname } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { remoteJwks, systemClock, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { openBus, Outbox, RouteSync, type Bus } from '@cloud/bus';
import { readOrCreateKeyFile } from '@cloud/config';
import type { Database } from '@cloud/db';
import { createLogger, type Logger } from '@cloud/logging';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import { RevocationSet } from '@cloud/revocations';
import { openDatabaseAtStart } from '@cloud/service-shell';
import { createStreamsApp, STREAMS_SERVICE_NAME, type StreamsApp } from './app';
import type { StreamsConfig } from './config';
import { NodeRoutes } from './domain/node-routes';
import { SecretBox } from './domain/secret-box';
import { consumeStreamEnds } from './entry-points/messages/stream-ends.consumer';
import { streamsMigrations, STREAMS_SCHEMA } from './migrations';

export interface StreamsService extends StreamsApp {
  db: Database;
  logger: Logger;
  bus: Bus;
  outbox: Outbox;
  routes: NodeRoutes;
  /** This replica's name in stream leases. */
  instanceId: string;
  /** Stops the worker, drains call events, stops the relay, closes its bus and the database (if it opened it). */
  close(): Promise<void>;
}

export interface StreamsServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** A bus shared with other services in this process; by default the service opens its own. */
  bus?: Bus;
  /** The accounts service's keys; by default read from its JWKS at ACCOUNTS_URL. */
  keys?: PublicKeyResolver;
  /** A database shared with other instances in this process; by default the service opens its own. */
  db?: Database;
}

/** Reads the key sealing signing secrets, creating it (mode 0600) on first use when STREAMS_SECRET_KEY_FILE is unset. */
export function loadStreamsSecretKey(config: Pick<StreamsConfig, 'STREAMS_SECRET_KEY_FILE' | 'DATA_DIR'>): Buffer {
  return readOrCreateKeyFile(config.STREAMS_SECRET_KEY_FILE ?? path.join(config.DATA_DIR, 'keys', 'streams-secrets.key'));
}

/** Loads the keys, opens the database (running migrations) and the bus, loads the node routes and starts the worker: everything but listening. */
export async function createStreamsService(config: StreamsConfig, options: StreamsServiceOptions = {}): Promise<StreamsService> {
  const logger = options.logger ?? createLogger({ service: STREAMS_SERVICE_NAME, level: config.LOG_LEVEL });
  const secrets = new SecretBox(loadStreamsSecretKey(config));
  const rpcKey = loadNodeRpcKey(config);
  const instanceId = config.STREAMS_INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const db = await openDatabaseAtStart(config, { schema: STREAMS_SCHEMA, migrations: streamsMigrations }, logger, options.db);
  const bus = await openBus(config, STREAMS_SERVICE_NAME, logger, options.bus);
  const outbox = new Outbox({ db, bus, logger });
  const revocations = new RevocationSet({ bus, logger, service: STREAMS_SERVICE_NAME, accountsUrl: config.ACCOUNTS_URL });
  const routes = new NodeRoutes();
  const routeSync = new RouteSync({ bus, table: routes, name: 'streams.routes', logger, resyncIntervalMs: 60_000 });
  const parts = createStreamsApp({
    config,
    logger,
    db,
    bus,
    outbox,
    keys: options.keys ?? remoteJwks(new URL('/.well-known/jwks.json', config.ACCOUNTS_URL).href),
    revocations,
    clock: options.clock ?? systemClock,
    routes,
    routeSync,
    secrets,
    rpcKey,
    instanceId,
  });
  await revocations.start();
  await routeSync.start();
  await parts.worker.start();
  await consumeStreamEnds(bus, parts.streams);
  outbox.start();
  logger.info('streams service started', { instanceId });
  return {
    ...parts,
    db,
    logger,
    bus,
    outbox,
    routes,
    instanceId,
    async close() {
      await parts.worker.stop();
      await routeSync.stop();
      await parts.recorder.drain();
      await outbox.stop();
      revocations.stop();
      await bus.close();
      if (!options.db) await db.destroy();
    },
  };
}
