import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { REVOCATION_RELEVANT_MS, type TokenClaims, type TokenKind } from '@cloud/auth';
import { InProcessBus, message, type AnyBusMessage, type RpcReply } from '@cloud/bus';
import { ServiceUnavailableError } from '@cloud/http';
import { createLogger, type Logger } from '@cloud/logging';
import { RevocationSet } from '../src';

type Snapshot = RpcReply<'revocations.snapshot'>;

const EMPTY: Snapshot = { clientKeys: [], credentials: [], users: [] };

/** A logger whose lines (parsed JSON) a test can look at. */
function recordingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: createLogger({ service: 'cloud-test', level: 'info', stream }), lines };
}

/** Polls `condition` until it holds (anything but false/undefined, without throwing), failing after `timeoutMs`. */
async function waitUntil(what: string, condition: () => unknown, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result: unknown = await condition();
      if (result !== false && result !== undefined) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Claims of a verified client token (the only kind the set guards); `cid` names its client key. */
function claims(sub: string, ver: number, cid = 'key-any', kind: TokenKind = 'client'): TokenClaims {
  const iat = Math.floor(Date.now() / 1000);
  return { sub, kind, ver, ...(cid === undefined ? {} : { cid }), jti: randomUUID(), iat, exp: iat + 3600, iss: 'cloud-accounts' };
}

function gate(): { promise: Promise<void>; release(): void } {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('RevocationSet', () => {
  let bus: InProcessBus;
  let set: RevocationSet;
  let log: ReturnType<typeof recordingLogger>;
  let snapshotRequests: number;

  beforeEach(() => {
    log = recordingLogger();
    bus = new InProcessBus(log.logger);
    set = new RevocationSet({ bus, logger: log.logger, service: 'cloud-test' });
    snapshotRequests = 0;
  });
  afterEach(async () => {
    set.stop();
    await bus.close();
  });

  /** Serves `revocations.snapshot` on the bus, as the accounts service does. */
  const serve = (answer: () => Promise<Snapshot> | Snapshot) =>
    bus.serve('revocations.snapshot', async () => {
      snapshotRequests += 1;
      return answer();
    });
  const loaded = () => {
    set.checkReady();
    return true;
  };
  const startLoaded = async (snapshot: Snapshot = EMPTY) => {
    await serve(() => snapshot);
    await set.start();
    await waitUntil('the snapshot is loaded', loaded);
  };

  it('refuses every check with a 503 until the first snapshot is in, asking again until someone serves it', async () => {
    await set.start();
    const refusal = set.isRevoked(claims('user-a', 0));
    await expect(refusal).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(refusal).rejects.toMatchObject({ status: 503, code: 'NotReady' });
    expect(() => set.checkReady()).toThrow(/not loaded/);

    // Nobody serves the snapshot yet: the bus keeps trying the request (and tokens are refused meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(set.isRevoked(claims('user-a', 0))).rejects.toMatchObject({ status: 503 });

    await serve(() => ({ ...EMPTY, users: ['user-gone'] }));
    await waitUntil('the snapshot is loaded', loaded, 5000);
    expect(snapshotRequests).toBe(1);
    await expect(set.isRevoked(claims('user-a', 0))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-gone', 0))).resolves.toBe(true);
    expect(log.lines.filter((line) => line.message === 'token revocations loaded')).toHaveLength(1);
  });

  it('asks again when the snapshot fails at the server, and loads once it is answered', async () => {
    let failures = 2;
    await serve(() => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database down');
      }
      return { ...EMPTY, clientKeys: [{ userId: 'user-a', clientId: 'key-1' }] };
    });
    await set.start();
    await expect(set.isRevoked(claims('user-a', 0, 'key-1'))).rejects.toMatchObject({ status: 503 });
    await waitUntil('the snapshot is loaded', loaded);
    expect(snapshotRequests).toBe(3);
    await expect(set.isRevoked(claims('user-a', 0, 'key-1'))).resolves.toBe(true);
  });

  it('applies the facts of the snapshot: deleted client keys, credentials versions, deleted users', async () => {
    await startLoaded({
      clientKeys: [{ userId: 'user-a', clientId: 'key-1' }],
      credentials: [{ userId: 'user-b', credentialsVersion: 2 }],
      users: ['user-c'],
    });
    const cases: [string, TokenClaims, boolean][] = [
      ['a client token of the deleted key', claims('user-a', 0, 'key-1'), true],
      ["a client token of the user's other key", claims('user-a', 0, 'key-2'), false],
      ['a client token of an older credentials version', claims('user-b', 1, 'key-9'), true],
      ['a client token of the current credentials version', claims('user-b', 2, 'key-9'), false],
      ['a client token of a deleted user', claims('user-c', 0), true],
      ['a client token of a deleted user, whatever its version', claims('user-c', 7, 'key-3'), true],
      ['a token of anyone else', claims('user-d', 0, 'key-4'), false],
    ];
    for (const [what, tokenClaims, revoked] of cases) {
      expect([what, await set.isRevoked(tokenClaims)]).toEqual([what, revoked]);
    }
  });

  it('applies broadcasts as they come', async () => {
    await startLoaded();
    await expect(set.isRevoked(claims('user-a', 0, 'key-1'))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-b', 0))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-c', 0))).resolves.toBe(false);

    await bus.publish([message('revocation.client-key-deleted', { userId: 'user-a', clientId: 'key-1' })]);
    await waitUntil('the deleted key is revoked', () => set.isRevoked(claims('user-a', 0, 'key-1')));
    await expect(set.isRevoked(claims('user-a', 0, 'key-2'))).resolves.toBe(false);

    await bus.publish([message('revocation.credentials-changed', { userId: 'user-b', credentialsVersion: 3 })]);
    await waitUntil('older credentials are revoked', () => set.isRevoked(claims('user-b', 2)));
    await expect(set.isRevoked(claims('user-b', 3))).resolves.toBe(false);

    // A late, lower version (messages can arrive out of order) does not bring older tokens back.
    await bus.publish([message('revocation.credentials-changed', { userId: 'user-b', credentialsVersion: 1 })]);
    await bus.publish([message('revocation.user-deleted', { userId: 'user-c' })]);
    await waitUntil('the deleted user is revoked', () => set.isRevoked(claims('user-c', 0)));
    await expect(set.isRevoked(claims('user-b', 2))).resolves.toBe(true);
    await expect(set.isRevoked(claims('user-b', 3))).resolves.toBe(false);
    expect(snapshotRequests).toBe(1);
  });

  it('a snapshot that arrives after a broadcast does not undo the broadcast', async () => {
    const held = gate();
    // The snapshot was read before the broadcasts' changes, so it does not know them.
    await serve(async () => {
      await held.promise;
      return { clientKeys: [], credentials: [{ userId: 'user-e', credentialsVersion: 1 }], users: [] };
    });
    // Another subscriber of the same broadcasts, subscribed after the set, to know when they have been delivered.
    const witnessed: AnyBusMessage[] = [];
    await set.start();
    await bus.subscribe({
      name: 'witness',
      bindings: ['revocation.*'],
      handle: (messages) => {
        witnessed.push(...messages);
        return Promise.resolve();
      },
    });
    await waitUntil('the snapshot was asked for', () => snapshotRequests === 1);

    await bus.publish([
      message('revocation.credentials-changed', { userId: 'user-e', credentialsVersion: 2 }),
      message('revocation.client-key-deleted', { userId: 'user-f', clientId: 'key-x' }),
      message('revocation.user-deleted', { userId: 'user-g' }),
    ]);
    await waitUntil('the broadcasts were delivered', () => witnessed.length === 3);
    await expect(set.isRevoked(claims('user-e', 1))).rejects.toMatchObject({ status: 503 });

    held.release();
    await waitUntil('the snapshot is loaded', loaded);
    await expect(set.isRevoked(claims('user-e', 1))).resolves.toBe(true);
    await expect(set.isRevoked(claims('user-e', 2))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-f', 0, 'key-x'))).resolves.toBe(true);
    await expect(set.isRevoked(claims('user-g', 0))).resolves.toBe(true);
  });

  it('started long before the accounts service, loads as soon as that serves the snapshot', async () => {
    // Several request timeouts pass with nobody serving: the set keeps asking, without backing off.
    const early = new RevocationSet({ bus, logger: log.logger, service: 'cloud-test', snapshotTimeoutMs: 500 });
    await early.start();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(() => early.checkReady()).toThrow(/not loaded/);
    await serve(() => ({ ...EMPTY, users: ['user-gone'] }));
    // Within one retry of the bus (at most 500 ms apart), not after a backoff grown to seconds.
    await waitUntil(
      'the snapshot is loaded',
      () => {
        early.checkReady();
        return true;
      },
      1000,
    );
    await expect(early.isRevoked(claims('user-gone', 0))).resolves.toBe(true);
    early.stop();
  });

  it('once stopped, asks no more', async () => {
    // A request nobody serves is tried until its timeout: short here, so the one in flight ends.
    const stopping = new RevocationSet({ bus, logger: log.logger, service: 'cloud-test', snapshotTimeoutMs: 200 });
    await stopping.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    stopping.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await serve(() => EMPTY);
    // Every attempt it would have made is over by now.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(snapshotRequests).toBe(0);
    expect(() => stopping.checkReady()).toThrow();
  });

  it('loads the snapshot page by page, asking for each page after the previous one', async () => {
    // Three pages of the accounts service's snapshot: the cursor is what the last page named.
    const pages: Record<string, Snapshot> = {
      first: { clientKeys: [{ userId: 'user-a', clientId: 'key-1' }], credentials: [], users: [], next: '10' },
      '10': { clientKeys: [], credentials: [{ userId: 'user-b', credentialsVersion: 2 }], users: [], next: '20' },
      '20': { clientKeys: [], credentials: [], users: ['user-c'], next: null },
    };
    const asked: unknown[] = [];
    await bus.serve('revocations.snapshot', async (request) => {
      asked.push(request);
      return pages[request.after ?? 'first']!;
    });
    set = new RevocationSet({ bus, logger: log.logger, service: 'cloud-test', pageSize: 2 });
    await set.start();
    await waitUntil('the snapshot is loaded', loaded);
    expect(asked).toEqual([{ limit: 2 }, { after: '10', limit: 2 }, { after: '20', limit: 2 }]);
    await expect(set.isRevoked(claims('user-a', 0, 'key-1'))).resolves.toBe(true);
    await expect(set.isRevoked(claims('user-b', 1))).resolves.toBe(true);
    await expect(set.isRevoked(claims('user-c', 5))).resolves.toBe(true);
    expect(set.size).toBe(3);
  });

  it('forgets each revocation once every client token it could match has expired, and not before', async () => {
    let now = Date.parse('2026-06-01T12:00:00Z');
    set = new RevocationSet({ bus, logger: log.logger, service: 'cloud-test', clock: () => now });
    // The snapshot's page: its newest revocation was made an hour and a bit ago, minus 10 s.
    const pageAt = now - REVOCATION_RELEVANT_MS + 10_000;
    await startLoaded({
      clientKeys: [{ userId: 'user-a', clientId: 'key-old' }],
      credentials: [],
      users: ['user-old'],
      latestAt: new Date(pageAt).toISOString(),
    });
    // Broadcasts made now: a password change and a user deletion.
    await bus.publish([
      message('revocation.credentials-changed', { userId: 'user-b', credentialsVersion: 4 }, new Date(now)),
      message('revocation.user-deleted', { userId: 'user-new' }, new Date(now)),
    ]);
    await waitUntil('the broadcasts are applied', () => set.size === 4);

    set.sweep();
    expect(set.size).toBe(4);
    now += 10_000; // the snapshot page's facts can no longer match a live client token
    set.sweep();
    expect(set.size).toBe(2);
    await expect(set.isRevoked(claims('user-a', 0, 'key-old'))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-old', 0))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-b', 3))).resolves.toBe(true);
    await expect(set.isRevoked(claims('user-new', 0))).resolves.toBe(true);

    // A second password change half an hour later keeps the user's entry until its own expiry.
    now += 30 * 60_000;
    await bus.publish([message('revocation.credentials-changed', { userId: 'user-b', credentialsVersion: 5 }, new Date(now))]);
    await waitUntil('the change is applied', () => set.isRevoked(claims('user-b', 4)));
    now = Date.parse('2026-06-01T12:00:00Z') + REVOCATION_RELEVANT_MS;
    set.sweep();
    expect(set.size).toBe(1);
    await expect(set.isRevoked(claims('user-new', 0))).resolves.toBe(false);
    await expect(set.isRevoked(claims('user-b', 4))).resolves.toBe(true);
    now += 30 * 60_000 + 10_000;
    set.sweep();
    expect(set.size).toBe(0);
  });

  it('refuses to judge a token of another kind than client (it may outlive what the set keeps)', async () => {
    await startLoaded();
    await expect(set.isRevoked(claims('user-a', 0, 'key-1', 'refresh'))).rejects.toThrow(/client tokens only/);
    await expect(set.isRevoked(claims('user-a', 0, 'key-1', 'account'))).rejects.toThrow(/client tokens only/);
  });
});
