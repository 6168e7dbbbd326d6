import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { LoginThrottle } from '../src/domain/login-throttle';
import { accountsMigrations, ACCOUNTS_SCHEMA } from '../src/migrations';

// Replicas share failed-login counts through PostgreSQL. The embedded default (PGlite) is one
// process and counts in memory, so this only applies, and only runs, when DATABASE_URL is set.
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('login throttle shared by replicas (PostgreSQL)', () => {
  let test: TestDatabase;
  const options = { maxFailuresPerAccount: 3, maxFailuresPerAddress: 100, windowSeconds: 600, blockSeconds: 900 };
  beforeAll(async () => {
    test = await createTestDatabase(ACCOUNTS_SCHEMA);
    await migrateToLatest(test.db, ACCOUNTS_SCHEMA, accountsMigrations);
  });
  afterAll(() => test.destroy());

  it('counts failures on every replica towards one limit, and a success anywhere clears it', async () => {
    const replicaA = new LoginThrottle({ ...options, postgres: { db: test.db, schema: ACCOUNTS_SCHEMA } });
    const replicaB = new LoginThrottle({ ...options, postgres: { db: test.db, schema: ACCOUNTS_SCHEMA } });

    await replicaA.recordFailure('user-1', '10.0.0.1');
    await replicaB.recordFailure('user-1', '10.0.0.2');
    await replicaB.recordSuccess('user-1');
    await replicaA.recordFailure('user-1', '10.0.0.1');
    await replicaB.recordFailure('user-1', '10.0.0.2');
    await expect(replicaA.assertAllowed('user-1', '10.0.0.3')).resolves.toBeUndefined();

    await replicaA.recordFailure('user-1', '10.0.0.1');
    for (const replica of [replicaA, replicaB]) {
      await expect(replica.assertAllowed('user-1', '10.0.0.3')).rejects.toMatchObject({ status: 429, code: 'TooManyRequests' });
    }
    const [row] = (await test.db('login_throttle').where({ key: 'account:user-1' })) as Array<{ points: number; expire: string }>;
    expect(row?.points).toBeGreaterThanOrEqual(3);
    // The block runs blockSeconds (900) from the failure that reached the limit.
    expect(Number(row?.expire) - Date.now()).toBeGreaterThan(890_000);
    await expect(replicaB.assertAllowed('user-2', '10.0.0.3')).resolves.toBeUndefined();
  });
});
