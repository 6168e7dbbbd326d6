import { migrateToLatest } from '@cloud/db';
import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { LoginThrottle } from '../src/domain/login-throttle';
import { accountsMigrations, ACCOUNTS_SCHEMA } from '../src/migrations';

// Replicas share failed-login counts through PostgreSQL. The embedded default (PGlite) is one
// process and counts in memory, so this only applies, and only runs, when DATABASE_URL is set.
const onPostgres = process.env.DATABASE_URL ? describe : describe.skip;

onPostgres('login throttle shared by replicas (PostgreSQL)', () => {
  let test: TestDatabase;
  const options = {
    maxFailuresPerAccountAndAddress: 100,
    maxFailuresPerAddress: 100,
    maxFailuresPerAccount: 3,
    windowSeconds: 600,
    blockSeconds: 900,
    knownAddressSeconds: 86_400,
  };
  beforeAll(async () => {
    test = await createTestDatabase(ACCOUNTS_SCHEMA);
    await migrateToLatest(test.db, ACCOUNTS_SCHEMA, accountsMigrations);
  });
  afterAll(() => test.destroy());

  it('counts attempts on every replica towards one account ceiling; a success anywhere gives its attempt back and makes its address known everywhere', async () => {
    const replicaA = new LoginThrottle({ ...options, postgres: { db: test.db, schema: ACCOUNTS_SCHEMA } });
    const replicaB = new LoginThrottle({ ...options, postgres: { db: test.db, schema: ACCOUNTS_SCHEMA } });

    await replicaA.attempt('user-1', '10.0.0.1');
    await replicaB.attempt('user-1', '10.0.0.2');
    await replicaB.succeeded('user-1', '10.0.0.2');
    await replicaA.attempt('user-1', '10.0.0.1');
    await replicaA.attempt('user-1', '10.0.0.3'); // the third counted: still allowed
    for (const [replica, address] of [
      [replicaA, '10.0.0.3'],
      [replicaB, '10.0.0.4'],
    ] as const) {
      await expect(replica.attempt('user-1', address)).rejects.toMatchObject({ status: 429, code: 'TooManyRequests' });
    }
    const [row] = (await test.db('login_throttle').where({ key: 'account:user-1' })) as Array<{ expire: string }>;
    // Blocked for blockSeconds (900) from the first refused attempt.
    expect(Number(row?.expire) - Date.now()).toBeGreaterThan(890_000);
    // The address that logged in on replica B gets through on replica A.
    await expect(replicaA.attempt('user-1', '10.0.0.2')).resolves.toBeUndefined();
    await expect(replicaB.attempt('user-2', '10.0.0.3')).resolves.toBeUndefined();
  });

  it('lets no more than the limit through when replicas take attempts at once', async () => {
    const replicas = [0, 1, 2].map(() => new LoginThrottle({ ...options, postgres: { db: test.db, schema: ACCOUNTS_SCHEMA } }));
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => replicas[i % 3]!.attempt('user-3', `10.0.1.${i}`)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
  });
});
