import { Router } from 'express';
import request from 'supertest';
import { authOf, bearerGuard, fromPublicJwk, staticKeys, TokenVerifier, type Clock, type PublicKeyResolver } from '@cloud/auth';
import { createOutbox, Outbox, type Bus } from '@cloud/bus';
import { CallRecorder, outboxSink } from '@cloud/call-events';
import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { buildOpenApiDocument, createHttpApp, NotFoundError, OpenAPIRegistry } from '@cloud/http';
import { createLogger, type Logger } from '@cloud/logging';
import { RevocationSet } from '@cloud/revocations';
import type { TestAccounts } from '../src/testing';

export const NODES_SERVICE_NAME = 'cloud-nodes';

/** The event record a successful `GET /nodes/:nodeId` of `user` leaves at the accounts service. */
export function nodeCallEvent(user: string, nodeId: string, requestId: string, bytesOut: number) {
  return {
    id: expect.stringMatching(/^event-[0-9a-f-]{36}$/) as unknown,
    user,
    service: NODES_SERVICE_NAME,
    input: { method: 'GET', route: '/nodes/:nodeId', resourceId: nodeId },
    output: { startTime: expect.any(String) as unknown, endTime: expect.any(String) as unknown, httpStatusCode: 200, bytesOut },
    serviceData: { requestId },
    createdAt: expect.any(String) as unknown,
  };
}

/** The accounts service's public keys, read once from its JWKS as another service would. */
export async function accountsKeys(t: TestAccounts): Promise<PublicKeyResolver> {
  const jwks = await t.http.get('/.well-known/jwks.json').expect(200);
  return staticKeys((jwks.body as { keys: Record<string, unknown>[] }).keys.map((jwk) => fromPublicJwk(jwk)));
}

export interface TestNodesOptions {
  /** The service's own bus (the test closes it). */
  bus: Bus;
  /** Where the accounts service's public keys come from. */
  keys: PublicKeyResolver;
  clock: Clock;
  /** Record every call through an outbox in a database of its own, as every service but accounts does. */
  recordCalls?: boolean;
  /** Start the revocation set at once (default); false leaves it to `startRevocations`. */
  startRevocations?: boolean;
  logger?: Logger;
}

export interface TestNodes {
  http: ReturnType<typeof request>;
  bus: Bus;
  revocations: RevocationSet;
  /** With `recordCalls`: the database, outbox and recorder of the service. */
  db?: TestDatabase;
  outbox?: Outbox;
  recorder?: CallRecorder;
  startRevocations(): Promise<void>;
  /** True once the revocation set is loaded (throws before): for `waitUntil`. */
  ready(): boolean;
  /** Rows of the outbox not yet relayed. */
  outboxRows(): Promise<number>;
  /** Waits for responses in flight and for their events to be written to the outbox. */
  settle(): Promise<void>;
  /** Stops the recorder, the relay and the revocation set and drops the database; the bus stays open. */
  close(): Promise<void>;
}

/**
 * Another service, in spirit another process, made from the same parts a real one is: its own
 * bus, a revocation set fed by it, bearer guards verifying tokens with the accounts service's
 * public keys, and (optionally) call recording through its own outbox.
 *
 * - `GET /nodes/:nodeId` (client token, the only kind services other than accounts take):
 *   `{nodeId, user}`; the node `missing` is 404.
 */
export async function startTestNodes(options: TestNodesOptions): Promise<TestNodes> {
  const logger = options.logger ?? createLogger({ service: NODES_SERVICE_NAME, level: 'silent' });
  const { bus } = options;
  const revocations = new RevocationSet({ bus, logger, service: NODES_SERVICE_NAME });
  const verifier = new TokenVerifier(options.keys, options.clock);

  let db: TestDatabase | undefined;
  let outbox: Outbox | undefined;
  let recorder: CallRecorder | undefined;
  if (options.recordCalls) {
    db = await createTestDatabase('producer');
    await migrateToLatest(db.db, 'producer', [createOutbox]);
    outbox = new Outbox({ db: db.db, bus, logger, pollIntervalMs: 200 });
    recorder = new CallRecorder({ service: NODES_SERVICE_NAME, sink: outboxSink(outbox, db.db), logger, clock: options.clock });
    outbox.start();
  }

  const router = Router();
  router.get('/nodes/:nodeId', bearerGuard({ verifier, kind: 'client', isRevoked: revocations.isRevoked }), (req, res) => {
    if (req.params.nodeId === 'missing') throw new NotFoundError('no such node');
    res.json({ nodeId: req.params.nodeId, user: authOf(res).sub });
  });
  const app = createHttpApp({
    logger,
    openapi: buildOpenApiDocument(new OpenAPIRegistry(), { title: 'nodes (test)', version: '0.0.0' }),
    middleware: recorder ? [recorder.middleware] : [],
    readiness: [
      { name: 'message bus', degradable: true, check: () => bus.checkReady() },
      { name: 'token revocations', check: () => revocations.checkReady() },
    ],
    routers: [router],
  });

  if (options.startRevocations ?? true) await revocations.start();
  return {
    http: request(app),
    bus,
    revocations,
    ...(db ? { db } : {}),
    ...(outbox ? { outbox } : {}),
    ...(recorder ? { recorder } : {}),
    startRevocations: () => revocations.start(),
    ready() {
      revocations.checkReady();
      return true;
    },
    async outboxRows() {
      if (!db) return 0;
      const [{ n }] = (await db.db('outbox').count({ n: '*' })) as [{ n: string | number }];
      return Number(n);
    },
    settle: async () => {
      await recorder?.drain();
    },
    async close() {
      await recorder?.drain();
      await outbox?.stop();
      revocations.stop();
      await db?.destroy();
    },
  };
}
