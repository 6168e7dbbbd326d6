import { proxyAddressesOf } from '@cloud/chains';
import { remoteJwks, systemClock, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { openBus, Outbox, type Bus } from '@cloud/bus';
import type { Database } from '@cloud/db';
import { createLogger, type Logger } from '@cloud/logging';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import { RevocationSet } from '@cloud/revocations';
import { openDatabaseAtStart } from '@cloud/service-shell';
import { createStakingApp, STAKING_SERVICE_NAME, type StakingApp } from './app';
import type { StakingConfig } from './config';
import { StakingKeyCipher } from './domain/staking-key-cipher';
import { loadStakingEncryptionKey } from './encryption-key';
import { consumeNodeChanges } from './entry-points/messages/node-changes.consumer';
import { consumeUserDeletions } from './entry-points/messages/user-deletions.consumer';
import { serveValidatorTls } from './entry-points/messages/validator-tls.server';
import { stakingMigrations, STAKING_SCHEMA } from './migrations';

export interface StakingService extends StakingApp {
  db: Database;
  logger: Logger;
  bus: Bus;
  outbox: Outbox;
  /** Drains call events, stops the relay, closes its bus (of a shared one, only its own consumers) and the database (if it opened it). */
  close(): Promise<void>;
}

export interface StakingServiceOptions {
  logger?: Logger;
  clock?: Clock;
  /** A bus shared with other services in this process; by default the service opens its own. */
  bus?: Bus;
  /** The accounts service's keys; by default read from its JWKS at ACCOUNTS_URL. */
  keys?: PublicKeyResolver;
  /** A database shared with other instances in this process; by default the service opens its own. */
  db?: Database;
  /** The runtime contract's proxy ports → where clients reach them, when the proxy listens elsewhere (as the nodes service takes it). */
  proxyPorts?: Readonly<Record<number, number>>;
}

/** Loads the keys, opens the database (running migrations) and the bus, and starts the consumers: everything but listening. */
export async function createStakingService(config: StakingConfig, options: StakingServiceOptions = {}): Promise<StakingService> {
  const logger = options.logger ?? createLogger({ service: STAKING_SERVICE_NAME, level: config.LOG_LEVEL });
  const cipher = new StakingKeyCipher(loadStakingEncryptionKey(config));
  const rpcKey = loadNodeRpcKey(config);
  const db = await openDatabaseAtStart(config, { schema: STAKING_SCHEMA, migrations: stakingMigrations }, logger, options.db);
  const bus = await openBus(config, STAKING_SERVICE_NAME, logger, options.bus);
  const outbox = new Outbox({ db, bus, logger });
  const revocations = new RevocationSet({ bus, logger, service: STAKING_SERVICE_NAME, accountsUrl: config.ACCOUNTS_URL });
  const parts = createStakingApp({
    config,
    logger,
    db,
    bus,
    outbox,
    keys: options.keys ?? remoteJwks(new URL('/.well-known/jwks.json', config.ACCOUNTS_URL).href),
    revocations,
    clock: options.clock ?? systemClock,
    cipher,
    rpcKey,
    addresses: proxyAddressesOf({ ...config, ports: options.proxyPorts }),
  });
  await revocations.start();
  await consumeNodeChanges(bus, parts.validators);
  await consumeUserDeletions(bus, parts.validators);
  await serveValidatorTls(bus, parts.validators);
  outbox.start();
  logger.info('staking service started', { keyEncryptionKeyId: cipher.currentKeyId });
  return {
    ...parts,
    db,
    logger,
    bus,
    outbox,
    async close() {
      await parts.recorder.drain();
      await outbox.stop();
      revocations.stop();
      await bus.close();
      if (!options.db) await db.destroy();
    },
  };
}
