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
import type { StakingConfig } from './config';
import { PChainClient } from './data-access/p-chain.client';
import { ValidatorsRepository } from './data-access/validators.repository';
import { RegistrationReader } from './domain/registration-reader';
import type { StakingKeyCipher } from './domain/staking-key-cipher';
import { ValidatorsService } from './domain/validators';
import { stakingOpenApiDocument } from './entry-points/http/openapi';
import { stakingRoutes } from './entry-points/http/staking.routes';

export const STAKING_SERVICE_NAME = 'cloud-staking';

export interface StakingAppDependencies {
  /** Where clients reach the node-proxy: the addresses every validator record prints. */
  addresses: ProxyAddresses;
  config: StakingConfig;
  logger: Logger;
  db: Database;
  bus: Bus;
  outbox: Outbox;
  /** The accounts service's public keys, which sign client tokens. */
  keys: PublicKeyResolver;
  revocations: RevocationSet;
  clock: Clock;
  /** Seals validators' staking keys at rest. */
  cipher: StakingKeyCipher;
  /** The key deriving each node's internal RPC login (shared with the nodes service and the node-proxy). */
  rpcKey: Buffer;
}

export interface StakingApp {
  app: Express;
  recorder: CallRecorder;
  validators: ValidatorsService;
  repository: ValidatorsRepository;
}

/** Wires the repository, the P-chain reader, the use cases and the routes by hand; nothing starts here. */
export function createStakingApp(deps: StakingAppDependencies): StakingApp {
  const { config, logger, db, outbox, clock } = deps;
  const repository = new ValidatorsRepository(db);
  const registrations = new RegistrationReader({
    client: new PChainClient({ rpcKey: deps.rpcKey, timeoutMs: config.STAKING_NODE_TIMEOUT_MS }),
    validators: repository,
    clock,
    logger,
    cacheMs: config.STAKING_STATUS_CACHE_MS,
  });
  const validators = new ValidatorsService({
    db,
    validators: repository,
    outbox,
    cipher: deps.cipher,
    registrations,
    clock,
    addresses: deps.addresses,
    maxValidatorsPerUser: config.MAX_VALIDATORS_PER_USER,
  });
  const requireClient = bearerGuard({ verifier: new TokenVerifier(deps.keys, clock), kind: 'client', isRevoked: deps.revocations.isRevoked });
  const recorder = new CallRecorder({ service: STAKING_SERVICE_NAME, sink: outboxSink(outbox, db), logger, clock });
  const app = createHttpApp({
    logger,
    openapi: stakingOpenApiDocument(),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    corsOrigins: config.CORS_ORIGINS,
    metrics: { service: STAKING_SERVICE_NAME, registries: [busMetrics] },
    readiness: apiReadiness({ db, bus: deps.bus, tokens: { revocations: deps.revocations, keys: deps.keys } }),
    middleware: [recorder.middleware],
    routers: [mountRoutes(stakingRoutes, { validators, requireClient })],
  });
  return { app, recorder, validators, repository };
}
