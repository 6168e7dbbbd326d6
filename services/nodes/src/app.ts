import type { ProxyAddresses } from '@cloud/chains';
import type { Express } from 'express';
import { bearerGuard, TokenVerifier, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { busMetrics, type Bus, type Outbox } from '@cloud/bus';
import { CallRecorder, outboxSink } from '@cloud/call-events';
import type { Database } from '@cloud/db';
import { createHttpApp, mountRoutes } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { RevocationSet } from '@cloud/revocations';
import { apiReadiness } from '@cloud/service-shell';
import type { NodesConfig } from './config';
import { NodesRepository } from './data-access/nodes.repository';
import { PoolsRepository } from './data-access/pools.repository';
import { UsageRepository } from './data-access/usage.repository';
import { CredentialedEndpoints } from './domain/credentialed-endpoints';
import { NodeAccessRules } from './domain/node-access';
import { NodeCredentials } from './domain/node-credentials';
import { NodeOperations } from './domain/node-operations';
import { NodeRegistry } from './domain/node-registry';
import { PoolRegistry } from './domain/pool-registry';
import { Reconciler } from './domain/reconciler';
import { UsageIngest } from './domain/usage-ingest';
import { UsageReports } from './domain/usage-report';
import { UsageRetentionJob } from './domain/usage-retention';
import type { NodeDriver } from './domain/node-driver';
import { nodesOpenApiDocument } from './entry-points/http/openapi';
import { nodesApiRoutes } from './entry-points/http/routes';

export const NODES_SERVICE_NAME = 'cloud-nodes';

export interface NodesAppDependencies {
  config: NodesConfig;
  logger: Logger;
  db: Database;
  bus: Bus;
  outbox: Outbox;
  driver: NodeDriver;
  /** The accounts service's public keys, which sign client tokens. */
  keys: PublicKeyResolver;
  revocations: RevocationSet;
  clock: Clock;
  instanceId: string;
  /** Where clients reach the node-proxy: the addresses every node record prints. */
  addresses: ProxyAddresses;
}

export interface NodesApp {
  app: Express;
  recorder: CallRecorder;
  nodes: NodeRegistry;
  pools: PoolRegistry;
  reconciler: Reconciler;
  repository: NodesRepository;
  usageIngest: UsageIngest;
  usageRetention: UsageRetentionJob;
}

/** Wires the repository, the use cases, the reconciler and the routes by hand; nothing starts here. */
export function createNodesApp(deps: NodesAppDependencies): NodesApp {
  const { config, logger, db, outbox, driver, clock } = deps;
  const repository = new NodesRepository(db);
  const poolsRepository = new PoolsRepository(db);
  const reconciler = new Reconciler({
    db,
    nodes: repository,
    outbox,
    driver,
    logger,
    clock,
    nodeDomain: config.NODE_DOMAIN,
    instanceId: deps.instanceId,
    leaseSeconds: config.NODE_LEASE_SECONDS,
    intervalMs: config.RECONCILE_INTERVAL_MS,
    stakingTls: (nodeId) => deps.bus.request('staking.validator-tls', { nodeId }),
  });
  const serviceDeps = {
    db,
    nodes: repository,
    pools: poolsRepository,
    outbox,
    driver,
    clock,
    addresses: deps.addresses,
    maxNodesPerUser: config.MAX_NODES_PER_USER,
    onChange: () => reconciler.wake(),
  };
  const nodes = new NodeRegistry(serviceDeps);
  const operations = new NodeOperations(serviceDeps);
  const pools = new PoolRegistry({ ...serviceDeps, maxPoolsPerUser: config.MAX_POOLS_PER_USER });
  // Nodes and pools keep credentials and access rules alike: one set of use cases serves both.
  const endpoints = new CredentialedEndpoints(serviceDeps);
  const access = new NodeAccessRules({
    db,
    endpoints,
    clock,
    maxRatePerSecond: config.NODE_MAX_RATE_PER_SECOND,
    maxAnswerBytes: config.NODE_MAX_ANSWER_BYTES,
  });
  const credentials = new NodeCredentials({ db, endpoints, clock, maxCredentialsPerNode: config.MAX_CREDENTIALS_PER_NODE });
  const requireClient = bearerGuard({ verifier: new TokenVerifier(deps.keys, clock), kind: 'client', isRevoked: deps.revocations.isRevoked });
  const usage = new UsageRepository(db);
  const retention = { minuteMs: config.USAGE_MINUTE_RETENTION_HOURS * 3_600_000, hourMs: config.USAGE_HOUR_RETENTION_DAYS * 86_400_000 };
  const usageIngest = new UsageIngest({ db, usage, clock, logger, retention });
  const usageRetention = new UsageRetentionJob({ ingest: usageIngest, logger, intervalMs: config.USAGE_RETENTION_INTERVAL_MS });
  const recorder = new CallRecorder({ service: NODES_SERVICE_NAME, sink: outboxSink(outbox, db), logger, clock });
  const app = createHttpApp({
    logger,
    openapi: nodesOpenApiDocument(),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    metrics: { service: NODES_SERVICE_NAME, registries: [busMetrics] },
    readiness: apiReadiness({ db, bus: deps.bus, tokens: { revocations: deps.revocations, keys: deps.keys } }),
    middleware: [recorder.middleware],
    routers: [mountRoutes(nodesApiRoutes, { nodes, pools, operations, access, credentials, usageReports: new UsageReports({ usage, clock }), requireClient })],
  });
  return { app, recorder, nodes, pools, reconciler, repository, usageIngest, usageRetention };
}
