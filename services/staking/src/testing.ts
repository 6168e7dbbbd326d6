// Test helpers for the staking service and for tests that run it beside the nodes service
// (`@cloud/staking/testing`). They use dev dependencies (supertest, the nodes service's test
// platform): never import them from production code.
import request from 'supertest';
import { createTestDatabase } from '@cloud/db/testing';
import { createLogger } from '@cloud/logging';
import type { TestPlatform } from '@cloud/nodes/testing';
import { waitUntil } from '@cloud/accounts/testing';
import { createStakingService, loadStakingConfig, type StakingService } from './index';

export interface TestStaking {
  service: StakingService;
  http: ReturnType<typeof request>;
  /** Closes the service and drops its database, once. Call it before the platform's `close`. */
  close(): Promise<void>;
}

/**
 * The staking service as `npm start` builds it, on the platform of `@cloud/nodes/testing`: its
 * accounts service's keys, clock and bus (the shared in-process bus, or its RabbitMQ prefix), and
 * its DATA_DIR (so the node RPC key is the nodes service's), with a fresh database of its own
 * (PostgreSQL when DATABASE_URL is set, PGlite otherwise). Resolves once `/readyz` answers 200.
 */
export async function startTestStaking(platform: TestPlatform, env: Record<string, string> = {}): Promise<TestStaking> {
  const database = await createTestDatabase('staking');
  const config = loadStakingConfig({
    DATA_DIR: platform.dataDir,
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...platform.busEnv,
    ...env,
  });
  const service = await createStakingService(config, {
    clock: platform.clock,
    logger: createLogger({ service: 'test', level: 'silent' }),
    keys: platform.keys,
    ...(platform.sharedBus ? { bus: platform.sharedBus } : {}),
    ...(database.url ? {} : { db: database.db }),
  });
  platform.ownBus(service.bus);
  let closing: Promise<void> | undefined;
  const staking: TestStaking = {
    service,
    http: request(service.app),
    close: () =>
      (closing ??= (async () => {
        await service.close();
        await database.destroy();
      })()),
  };
  // As a load balancer would, wait for /readyz: until the token revocations are loaded the API answers 503.
  await waitUntil('the staking service to be ready', async () => (await staking.http.get('/readyz')).status === 200, 20_000, 20);
  return staking;
}
