import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { fromPublicJwk, staticKeys, type PublicKeyResolver } from '@cloud/auth';
import { InProcessBus, RabbitMqBus, type Bus, type RetryPolicy } from '@cloud/bus';
import { deleteTopologyOf, TEST_AMQP_URL, uniqueBusPrefix } from '@cloud/bus/testing';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import { loadNodeRpcKey } from '@cloud/node-rpc-auth';
import { bearer, clientTokens, fakeClock, startTestAccounts, verifiedUser, waitUntil, type FakeClock, type TestAccounts } from '@cloud/accounts/testing';
import { createNodesService, loadNodesConfig, type NodeDriver, type NodesService } from './index';
import { isNodeId, nodePaths, readNodeRecord } from './drivers/local/node-files';
import { isAlive, runsFrom, stopProcess } from './drivers/local/processes';

export { bearer, waitUntil };
export { findOnPath } from './drivers/local/software';

/** Hex SHA-256 of a node password: what the node-proxy checks Basic credentials against. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

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
  /** The key the instances derive their nodes' RPC passwords from, as the node-proxy reads it. */
  rpcKey: Buffer;
  /** The nodes database's connection string (PostgreSQL), or undefined on PGlite; an instance's env may reach it another way (a relay). */
  databaseUrl: string | undefined;
  /** The bus the test listens on: the shared in-process bus, or a connection of its own to the test's RabbitMQ prefix. */
  bus: Bus;
  /** The bus every service of the platform shares (in-process), or undefined when each opens its own (RabbitMQ, from `busEnv`). */
  sharedBus: Bus | undefined;
  /** AMQP_URL and AMQP_PREFIX of the test's RabbitMQ prefix; empty on the in-process bus. */
  busEnv: Record<string, string>;
  /** The accounts service's public keys, as a service verifying client tokens reads them. */
  keys: PublicKeyResolver;
  /** A bus of another service started by the test, whose RabbitMQ queues `close` deletes too. */
  ownBus(bus: Bus): void;
  /**
   * Starts an instance of the nodes service and waits until it is ready; several share the
   * database, the nodes directory and the bus. It runs nodes with the local driver unless given
   * another. Its `close` stops its nodes (STOP_NODES_ON_SHUTDOWN=true) unless `env` says `false`,
   * as a deployment does (they keep running, for the next instance to adopt).
   */
  startNodes(env?: Record<string, string>, driver?: NodeDriver): Promise<TestNodes>;
  user(): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestPlatformOptions {
  /** Use RabbitMQ (a prefix of its own) instead of one in-process bus shared by the services. */
  rabbitmq?: boolean;
  /** The PostgreSQL server to make the nodes database on (default DATABASE_URL; PGlite without either). */
  databaseServerUrl?: string;
  /** The in-process bus's retries (default the services'), for a test that outlasts them in less time. */
  retry?: RetryPolicy;
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
  const bus: Bus = rabbitBus ?? new InProcessBus(logger, options.retry);
  const sharedBus = options.rabbitmq ? {} : { bus };
  const accounts = await startTestAccounts(busEnv, clock, { ...sharedBus, logger });
  const keys = await accountsKeys(accounts);
  // Instances share the database as replicas would: over PostgreSQL each has its own pool, and on
  // PGlite (one connection per database) they share one in-memory database.
  const database: TestDatabase = await createTestDatabase('nodes', { ...(options.databaseServerUrl ? { serverUrl: options.databaseServerUrl } : {}) });
  const sharedDatabase = database.url ? {} : { db: database.db };
  const instances: TestNodes[] = [];
  const extraBuses: Bus[] = [];

  return {
    accounts,
    clock,
    dataDir,
    rpcKey: loadNodeRpcKey({ DATA_DIR: dataDir }),
    databaseUrl: database.url,
    bus,
    sharedBus: options.rabbitmq ? undefined : bus,
    busEnv,
    keys,
    ownBus: (other) => extraBuses.push(other),
    async startNodes(env = {}, driver) {
      const config = loadNodesConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        LOCAL_BLOCK_INTERVAL_SECONDS: '1',
        RECONCILE_INTERVAL_MS: '200',
        STOP_NODES_ON_SHUTDOWN: 'true',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
        ...busEnv,
        ...env,
      });
      const service = await createNodesService(config, { clock, logger, keys, driver, ...sharedBus, ...sharedDatabase });
      let closing: Promise<void> | undefined;
      const instance: TestNodes = { service, http: request(service.app), close: () => (closing ??= service.close()) };
      instances.push(instance);
      // As a load balancer would, wait for /readyz: until the token revocations are loaded from
      // the accounts service the API answers 503, and a test racing that load would flake.
      await waitUntil('the nodes instance to be ready', async () => (await instance.http.get('/readyz')).status === 200, 20_000, 20);
      return instance;
    },
    async user() {
      const { id, accountToken } = await verifiedUser(accounts);
      const tokens = await clientTokens(accounts, accountToken);
      return { id, accountToken, clientToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    },
    async close() {
      for (const instance of instances) await instance.close();
      // A test that left nodes running past its last instance (STOP_NODES_ON_SHUTDOWN=false): nothing outlives the run.
      await stopNodeProcessesUnder(path.join(dataDir, 'nodes'));
      await accounts.close();
      await bus.close();
      if (rabbitBus)
        await deleteTopologyOf(TEST_AMQP_URL, [rabbitBus, accounts.service.bus, ...instances.map((instance) => instance.service.bus), ...extraBuses]);
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Stops every process that a node.json under `nodesDir` names and that runs from that node's directory. */
async function stopNodeProcessesUnder(nodesDir: string): Promise<void> {
  const ids = existsSync(nodesDir) ? readdirSync(nodesDir).filter(isNodeId) : [];
  await Promise.all(
    ids.map(async (id) => {
      const paths = nodePaths(nodesDir, id);
      const pid = (await readNodeRecord(paths.record))?.pid;
      if (pid !== undefined && isAlive(pid) && runsFrom(pid, paths.dataDir)) await stopProcess(pid, 5_000);
    }),
  );
}

/** The accounts service's public keys, read from its JWKS as the nodes service does. */
async function accountsKeys(accounts: TestAccounts): Promise<PublicKeyResolver> {
  const jwks = await accounts.http.get('/.well-known/jwks.json').expect(200);
  return staticKeys((jwks.body as { keys: Record<string, unknown>[] }).keys.map((jwk) => fromPublicJwk(jwk)));
}
