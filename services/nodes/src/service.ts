import { proxyAddressesOf } from '@cloud/chains';
import { randomUUID } from 'node:crypto';
import { remoteJwks, systemClock, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { openBus, Outbox, type Bus } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { createLogger, type Logger } from '@cloud/logging';
import { RevocationSet } from '@cloud/revocations';
import { openDatabaseAtStart } from '@cloud/service-shell';
import { createNodesApp, NODES_SERVICE_NAME, type NodesApp } from './app';
import type { NodesConfig } from './config';
import type { NodeDriver } from './domain/node-driver';
import { openNodeDriver } from './drivers/open-driver';
import { serveProxyRequests } from './entry-points/messages/proxy-requests.server';
import { wakeReconcilerOnRequests } from './entry-points/messages/reconcile-wakeups';
import { consumeUsage } from './entry-points/messages/usage.consumer';
import { consumeUserDeletions } from './entry-points/messages/user-deletions.consumer';
import { consumeValidatorRequests } from './entry-points/messages/validator-requests.consumer';
import { nodesMigrations, NODES_SCHEMA } from './migrations';

export interface NodesService extends NodesApp {
  db: Database;
  logger: Logger;
  bus: Bus;
  outbox: Outbox;
  driver: NodeDriver;
  instanceId: string;
  /**
   * Stops the reconciler (this instance's nodes keep running, or with STOP_NODES_ON_SHUTDOWN stop
   * keeping their data; the leases are given up for the next instance, which adopts them), drains
   * call events, stops the relay, and closes the bus and the database (those it opened).
   */
  close(): Promise<void>;
}

export interface NodesServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** A bus shared with other services in this process; by default the service opens its own. */
  bus?: Bus;
  /** The driver; by default the one NODE_DRIVER names. */
  driver?: NodeDriver;
  /** The accounts service's keys; by default read from its JWKS at ACCOUNTS_URL. */
  keys?: PublicKeyResolver;
  /** A database shared with other instances in this process (tests of several instances on PGlite); by default the service opens its own. */
  db?: Database;
  /**
   * The runtime contract's proxy ports (8332, ...) → where clients reach them, for the printed
   * addresses, when the node-proxy listens elsewhere (the all-in-one on ports the system picked).
   * Read at each answer, so it may be filled once the proxy listens.
   */
  proxyPorts?: Readonly<Record<number, number>>;
}

/** Opens the database (running migrations), the bus and the driver, and starts the reconciler: everything but listening. */
export async function createNodesService(config: NodesConfig, options: NodesServiceOptions = {}): Promise<NodesService> {
  const logger = options.logger ?? createLogger({ service: NODES_SERVICE_NAME, level: config.LOG_LEVEL });
  const clock = options.clock ?? systemClock;
  const instanceId = config.NODES_INSTANCE_ID ?? `nodes-${randomUUID()}`;
  const db = await openDatabaseAtStart(config, { schema: NODES_SCHEMA, migrations: nodesMigrations }, logger, options.db);
  const bus = await openBus(config, NODES_SERVICE_NAME, logger, options.bus);
  const outbox = new Outbox({ db, bus, logger });
  const driver = options.driver ?? openNodeDriver(config, logger);
  const revocations = new RevocationSet({ bus, logger, service: NODES_SERVICE_NAME, clock, accountsUrl: config.ACCOUNTS_URL });
  const parts = createNodesApp({
    config,
    logger,
    db,
    bus,
    outbox,
    driver,
    keys: options.keys ?? remoteJwks(new URL('/.well-known/jwks.json', config.ACCOUNTS_URL).href),
    revocations,
    clock,
    instanceId,
    addresses: proxyAddressesOf({ ...config, ports: options.proxyPorts }),
  });
  await revocations.start();
  await consumeUserDeletions(bus, parts.nodes);
  await consumeValidatorRequests(bus, parts.nodes);
  await serveProxyRequests(bus, parts.nodes);
  await wakeReconcilerOnRequests(bus, parts.reconciler);
  await consumeUsage(bus, parts.usageIngest);
  parts.usageRetention.start();
  outbox.start();
  parts.reconciler.start();
  // Which networks local nodes run on, plainly: dev chains are not the images' real networks.
  const networks = driver.name === 'local' ? config.LOCAL_NETWORKS : 'public';
  const mode =
    networks === 'dev'
      ? 'nodes run on private dev chains (LOCAL_NETWORKS=dev): chain options and nodes say dev: true'
      : "nodes run on their images' real networks, where the real software is installed (an image without it runs a dev chain and says dev: true)";
  logger.info(`nodes service started; ${mode}`, { instanceId, driver: driver.name, networks });
  return {
    ...parts,
    db,
    logger,
    bus,
    outbox,
    driver,
    instanceId,
    async close() {
      await parts.reconciler.stop({ stopNodes: config.STOP_NODES_ON_SHUTDOWN });
      await parts.usageRetention.stop();
      await parts.recorder.drain();
      await outbox.stop();
      revocations.stop();
      await bus.close();
      if (!options.db) await db.destroy();
    },
  };
}
