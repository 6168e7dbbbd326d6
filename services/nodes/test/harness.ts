import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { fromPublicJwk, staticKeys, type PublicKeyResolver } from '@cloud/auth';
import { InProcessBus, RabbitMqBus, type Bus } from '@cloud/bus';
import { deleteBusTopology, TEST_AMQP_URL, uniqueBusPrefix } from '@cloud/bus/testing';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import { bearer, clientTokens, fakeClock, startTestAccounts, verifiedUser, waitUntil, type FakeClock, type TestAccounts } from '@cloud/accounts/testing';
import { createNodesService, loadNodesConfig, type NodesService } from '../src';

export { bearer, waitUntil };

export interface TestNodes {
  service: NodesService;
  http: ReturnType<typeof request>;
  /** Closes the instance (its nodes stop and its leases are given up), once. */
  close(): Promise<void>;
}

export interface TestUser {
  id: string;
  accountToken: string;
  /** A client access token: what the nodes API takes. */
  clientToken: string;
  refreshToken: string;
}

export interface TestPlatform {
  accounts: TestAccounts;
  clock: FakeClock;
  /** Shared by every nodes instance of the platform: the embedded databases and the local nodes' directories. */
  dataDir: string;
  /** The bus the test listens on: the shared in-process bus, or a connection of its own to the test's RabbitMQ prefix. */
  bus: Bus;
  /** Starts an instance of the nodes service; several share the database, the nodes directory and the bus. */
  startNodes(env?: Record<string, string>): Promise<TestNodes>;
  user(): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestPlatformOptions {
  /** Use RabbitMQ (a prefix of its own) instead of one in-process bus shared by the services. */
  rabbitmq?: boolean;
}

/**
 * The accounts service and nodes-service instances as `npm start` builds them, with a fresh
 * database each (PostgreSQL when DATABASE_URL is set, PGlite otherwise), local nodes that mine
 * a block a second, and a reconciler pass every 200 ms.
 */
export async function startTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const clock = fakeClock();
  const logger = createLogger({ service: 'test', level: 'silent' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nodes-test-'));
  const prefix = uniqueBusPrefix('nodes');
  const busEnv: Record<string, string> = options.rabbitmq ? { AMQP_URL: TEST_AMQP_URL, AMQP_PREFIX: prefix } : {};
  const rabbitBus = options.rabbitmq ? await RabbitMqBus.connect({ url: TEST_AMQP_URL, prefix, service: 'nodes-test', logger }) : undefined;
  await rabbitBus?.waitUntilConnected();
  const bus: Bus = rabbitBus ?? new InProcessBus(logger);
  const sharedBus = options.rabbitmq ? {} : { bus };
  const accounts = await startTestAccounts(busEnv, clock, { ...sharedBus, logger });
  const keys = await accountsKeys(accounts);
  // Instances share the database as replicas would: over PostgreSQL each has its own pool, and on
  // PGlite (one connection per database) they share one in-memory database.
  const database: TestDatabase = await createTestDatabase('nodes');
  const sharedDatabase = database.url ? {} : { db: database.db };
  const instances: TestNodes[] = [];

  return {
    accounts,
    clock,
    dataDir,
    bus,
    async startNodes(env = {}) {
      const config = loadNodesConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        LOCAL_BLOCK_INTERVAL_SECONDS: '1',
        RECONCILE_INTERVAL_MS: '200',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        ...busEnv,
        ...env,
      });
      const service = await createNodesService(config, { clock, logger, keys, ...sharedBus, ...sharedDatabase });
      let closing: Promise<void> | undefined;
      const instance: TestNodes = { service, http: request(service.app), close: () => (closing ??= service.close()) };
      instances.push(instance);
      return instance;
    },
    async user() {
      const { id, accountToken } = await verifiedUser(accounts);
      const tokens = await clientTokens(accounts, accountToken);
      return { id, accountToken, clientToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    },
    async close() {
      for (const instance of instances) await instance.close();
      await accounts.close();
      await bus.close();
      // Every bus declares every durable queue, so the test's own names them all.
      if (rabbitBus) await deleteBusTopology(TEST_AMQP_URL, rabbitBus.declaredNames());
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The accounts service's public keys, read from its JWKS as the nodes service does. */
async function accountsKeys(accounts: TestAccounts): Promise<PublicKeyResolver> {
  const jwks = await accounts.http.get('/.well-known/jwks.json').expect(200);
  return staticKeys((jwks.body as { keys: Record<string, unknown>[] }).keys.map((jwk) => fromPublicJwk(jwk)));
}
