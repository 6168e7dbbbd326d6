import type { Express } from 'express';
import { bearerGuard, TokenVerifier, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { busMetrics, type Bus, type Outbox, type RouteSync } from '@cloud/bus';
import { CallRecorder, outboxSink } from '@cloud/call-events';
import type { Database } from '@cloud/db';
import { createHttpApp, mountRoutes } from '@cloud/http';
import type { Logger } from '@cloud/logging';
import type { RevocationSet } from '@cloud/revocations';
import { apiReadiness } from '@cloud/service-shell';
import type { StreamsConfig } from './config';
import { DeliveriesRepository } from './data-access/deliveries.repository';
import { StreamsRepository } from './data-access/streams.repository';
import { LeasesRepository } from './data-access/leases.repository';
import { nodeRpcFor } from './data-access/node-rpc.client';
import { ScanRepository } from './data-access/scan.repository';
import { WebhookClient } from './data-access/webhook.client';
import { StreamDelivery } from './domain/delivery';
import { HeadWatcher } from './domain/head-watcher';
import { normalizeAddresses, normalizeTopics } from './domain/matching';
import type { NodeRoutes } from './domain/node-routes';
import type { SecretBox } from './domain/secret-box';
import { StreamScanner } from './domain/scanner';
import { StreamWorker } from './domain/stream-worker';
import { StreamsService } from './domain/streams';
import { TargetPolicy } from './domain/targets';
import { streamsOpenApiDocument } from './entry-points/http/openapi';
import { streamsRoutes } from './entry-points/http/streams.routes';

export const STREAMS_SERVICE_NAME = 'cloud-streams';

export interface StreamsAppDependencies {
  config: StreamsConfig;
  logger: Logger;
  db: Database;
  bus: Bus;
  outbox: Outbox;
  /** The accounts service's public keys, which sign client tokens. */
  keys: PublicKeyResolver;
  revocations: RevocationSet;
  clock: Clock;
  /** Every node and pool, as the nodes service announces them. */
  routes: NodeRoutes;
  /** Keeps the routes in step with the nodes service: the API answers only once they are loaded. */
  routeSync: RouteSync;
  /** Seals the streams' signing secrets at rest. */
  secrets: SecretBox;
  /** The key deriving each node's internal RPC login (shared with the nodes service and the node-proxy). */
  rpcKey: Buffer;
  /** Names this replica in stream leases. */
  instanceId: string;
}

export interface StreamsApp {
  app: Express;
  recorder: CallRecorder;
  streams: StreamsService;
  /** Scans and delivers this replica's streams once started. */
  worker: StreamWorker;
}

/** Wires the repositories, the use cases, the worker and the routes by hand; nothing starts here. */
export function createStreamsApp(deps: StreamsAppDependencies): StreamsApp {
  const { logger, db, outbox, clock, config } = deps;
  const targets = TargetPolicy.fromSetting(config.STREAMS_ALLOW_TARGETS);
  const deliveriesRepository = new DeliveriesRepository(db);
  const delivery = new StreamDelivery({
    repository: deliveriesRepository,
    client: new WebhookClient(config.STREAMS_DELIVERY_TIMEOUT_MS),
    targets,
    secrets: deps.secrets,
    logger,
    settings: {
      batchEvents: config.STREAMS_BATCH_EVENTS,
      batchBytes: config.STREAMS_BATCH_BYTES,
      retryBaseMs: config.STREAMS_RETRY_BASE_MS,
      retryMaxMs: config.STREAMS_RETRY_MAX_MS,
      retryForMs: config.STREAMS_RETRY_FOR_MS,
    },
  });
  const rpcFor = (target: Parameters<typeof nodeRpcFor>[0]) => nodeRpcFor(target, deps.rpcKey, config.STREAMS_NODE_TIMEOUT_MS);
  const heads = new HeadWatcher({ rpcFor, maxAgeMs: config.STREAMS_HEAD_INTERVAL_MS });
  const worker = new StreamWorker({
    leases: new LeasesRepository(db),
    routes: deps.routes,
    scanner: new StreamScanner({ repository: new ScanRepository(db), rpcFor, heads, scanBlocks: config.STREAMS_SCAN_BLOCKS, logger }),
    delivery,
    pruneDelivered: (before) => deliveriesRepository.pruneDelivered(before),
    instanceId: deps.instanceId,
    leaseMs: config.STREAMS_LEASE_MS,
    tickMs: config.STREAMS_HEAD_INTERVAL_MS,
    keepDeliveredMs: config.STREAMS_KEEP_DELIVERED_MS,
    logger,
  });
  const streams = new StreamsService({
    db,
    streams: new StreamsRepository(db),
    routes: { get: (nodeId) => deps.routes.get(nodeId), followTarget: (nodeId) => deps.routes.followTarget(nodeId), loaded: () => deps.routeSync.loaded },
    heads,
    targets,
    deliveries: {
      test: (stream) => delivery.test(stream),
      log: (streamId, limit) => deliveriesRepository.log(streamId, limit),
      deadLetters: (streamId, limit) => deliveriesRepository.deadLetters(streamId, limit),
      counts: (streamId) => deliveriesRepository.counts(streamId),
      replayDeadLetters: (streamId) => deliveriesRepository.replayDeadLetters(streamId),
    },
    addressRules: { normalizeAddresses, normalizeTopics },
    secrets: deps.secrets,
    waker: worker,
    limits: {
      maxStreamsPerUser: config.MAX_STREAMS_PER_USER,
      maxAddresses: config.STREAMS_MAX_ADDRESSES,
      maxBackfillBlocks: config.STREAMS_MAX_BACKFILL_BLOCKS,
    },
  });
  const requireClient = bearerGuard({ verifier: new TokenVerifier(deps.keys, clock), kind: 'client', isRevoked: deps.revocations.isRevoked });
  const recorder = new CallRecorder({ service: STREAMS_SERVICE_NAME, sink: outboxSink(outbox, db), logger, clock });
  const app = createHttpApp({
    logger,
    openapi: streamsOpenApiDocument(),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    metrics: { service: STREAMS_SERVICE_NAME, registries: [busMetrics] },
    readiness: [
      ...apiReadiness({ db, bus: deps.bus, tokens: { revocations: deps.revocations, keys: deps.keys } }),
      // Until the nodes are loaded, whose node a stream names cannot be told.
      { name: 'node routes', check: () => deps.routeSync.checkReady() },
    ],
    middleware: [recorder.middleware],
    routers: [mountRoutes(streamsRoutes, { streams, requireClient })],
  });
  return { app, recorder, streams, worker };
}
