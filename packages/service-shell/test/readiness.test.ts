import { createTestDatabase, type TestDatabase } from '@cloud/db/testing';
import { probeDependencies } from '@cloud/http';
import { apiReadiness, type ReadinessProbe } from '../src';

/** A dependency whose readiness a test switches. */
const probe = (): ReadinessProbe & { down: boolean } => ({
  down: false,
  checkReady() {
    if (this.down) throw new Error('away');
  },
});

describe('apiReadiness', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('readiness');
  });
  afterAll(() => database.destroy());

  it('pings the database and checks the bus, whose loss only degrades the service', async () => {
    const bus = probe();
    const checks = apiReadiness({ db: database.db, bus });
    expect(await probeDependencies(checks)).toEqual({ database: { up: true }, 'message bus': { up: true } });
    bus.down = true;
    expect(await probeDependencies(checks)).toEqual({ database: { up: true }, 'message bus': { up: false, degradable: true, error: 'away' } });
  });

  it('of a service verifying tokens, makes it unready without its revocations or the signing keys', async () => {
    const tokens = { revocations: probe(), keys: probe() };
    const checks = apiReadiness({ db: database.db, bus: probe(), tokens });
    tokens.revocations.down = true;
    tokens.keys.down = true;
    expect(await probeDependencies(checks)).toEqual({
      database: { up: true },
      'message bus': { up: true },
      'token revocations': { up: false, degradable: false, error: 'away' },
      'token signing keys': { up: false, degradable: false, error: 'away' },
    });
  });
});
