// Test helpers for the streams service and for tests that run it beside the nodes service
// (`@cloud/streams/testing`). They use dev dependencies (supertest, the nodes service's test
// platform): never import them from production code.
import request from 'supertest';
import { createTestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import type { TestPlatform } from '@cloud/nodes/testing';
import { waitUntil } from '@cloud/accounts/testing';
import { createStreamsService, loadStreamsConfig, type RunningStreamsService } from './index';

export interface TestStreams {
  service: RunningStreamsService;
  http: ReturnType<typeof request>;
  /** Closes the service and drops its database, once. Call it before the platform's `close`. */
  close(): Promise<void>;
}

/**
 * The streams service as `npm start` builds it, on the platform of `@cloud/nodes/testing`: its
 * accounts service's keys, clock and bus (the shared in-process bus, or its RabbitMQ prefix), and
 * its DATA_DIR (so the node RPC key is the nodes service's), with a fresh database of its own
 * (PostgreSQL when DATABASE_URL is set, PGlite otherwise). Resolves once `/readyz` answers 200.
 */
export async function startTestStreams(platform: TestPlatform, env: Record<string, string> = {}): Promise<TestStreams> {
  const database = await createTestDatabase('streams');
  const config = loadStreamsConfig({
    DATA_DIR: platform.dataDir,
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...platform.busEnv,
    ...env,
  });
  const service = await createStreamsService(config, {
    clock: platform.clock,
    logger: createLogger({ service: 'test', level: 'silent' }),
    keys: platform.keys,
    ...(platform.sharedBus ? { bus: platform.sharedBus } : {}),
    ...(database.url ? {} : { db: database.db }),
  });
  platform.ownBus(service.bus);
  let closing: Promise<void> | undefined;
  const streams: TestStreams = {
    service,
    http: request(service.app),
    close: () =>
      (closing ??= (async () => {
        await service.close();
        await database.destroy();
      })()),
  };
  // As a load balancer would, wait for /readyz: until the token revocations are loaded the API answers 503.
  await waitUntil('the streams service to be ready', async () => (await streams.http.get('/readyz')).status === 200, 20_000, 20);
  return streams;
}
