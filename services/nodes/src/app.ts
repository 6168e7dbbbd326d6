import type { Express } from 'express';
import { bearerGuard, TokenVerifier, type Clock, type PublicKeyResolver } from '@cloud/auth';
import type { Bus, Outbox } from '@cloud/bus';
import { CallRecorder, outboxSink } from '@cloud/call-events';
import { pingDatabase, type Database } from '@cloud/db';
import { createHttpApp } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { RevocationSet } from '@cloud/revocations';
import type { NodesConfig } from './config';
import { NodesRepository } from './data-access/nodes.repository';
import { NodesService } from './domain/nodes';
import { Reconciler } from './domain/reconciler';
import type { NodeDriver } from './drivers/driver';
import { nodesRouter } from './entry-points/http/nodes.router';
import { nodesOpenApiDocument } from './entry-points/http/openapi';

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
}

export interface NodesApp {
  app: Express;
  recorder: CallRecorder;
  nodes: NodesService;
  reconciler: Reconciler;
  repository: NodesRepository;
}

/** Wires the repository, the use cases, the reconciler and the routes by hand; nothing starts here. */
export function createNodesApp(deps: NodesAppDependencies): NodesApp {
  const { config, logger, db, outbox, driver, clock } = deps;
  const repository = new NodesRepository(db);
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
  const nodes = new NodesService({
    db,
    nodes: repository,
    outbox,
    driver,
    clock,
    nodeDomain: config.NODE_DOMAIN,
    maxNodesPerUser: config.MAX_NODES_PER_USER,
    onChange: () => reconciler.wake(),
  });
  const requireClient = bearerGuard({ verifier: new TokenVerifier(deps.keys, clock), kind: 'client', isRevoked: deps.revocations.isRevoked });
  const recorder = new CallRecorder({ service: NODES_SERVICE_NAME, sink: outboxSink(outbox, db), logger, clock });
  const app = createHttpApp({
    logger,
    openapi: nodesOpenApiDocument(),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    readiness: [
      { name: 'database', check: () => pingDatabase(db) },
      { name: 'message bus', check: () => deps.bus.checkReady() },
      { name: 'token revocations', check: () => deps.revocations.checkReady() },
    ],
    middleware: [recorder.middleware],
    routers: [nodesRouter(nodes, requireClient)],
  });
  return { app, recorder, nodes, reconciler, repository };
}
