import { REMOTELY_CHECKED_KIND, REVOCATION_RELEVANT_MS, systemClock, type Clock, type RevocationCheck, type TokenClaims } from '@cloud/auth';
import { rpcSchemas, SnapshotLoader, type AnyBusMessage, type Bus, type RpcReply, type RpcRequest } from '@cloud/bus';
import { ServiceUnavailableError } from '@cloud/http';
import type { Logger } from '@cloud/logging';

export interface RevocationSetOptions {
  bus: Bus;
  logger: Logger;
  /** The service keeping the set; names its dead-letter queue. */
  service: string;
  /**
   * The accounts service's base URL: while the bus is not connected (a start during a broker
   * outage) the snapshot is read from its `/internal/revocations` instead.
   */
  accountsUrl?: string;
  /** How long to wait for one page of the accounts service's snapshot before asking again. */
  snapshotTimeoutMs?: number;
  /** Revocations per snapshot page. */
  pageSize?: number;
  clock?: Clock;
}

/** How often revocations that no live token can match any more are forgotten. */
const SWEEP_INTERVAL_MS = 60_000;

type Snapshot = RpcReply<'revocations.snapshot'>;

/**
 * What a service that verifies tokens knows about revoked ones: deleted client keys, the lowest
 * credentials version still valid per user (a password change raises it), and deleted users.
 * Fed by the bus's `revocation.*` broadcasts, and filled from the accounts service's snapshot
 * (page by page) each time the subscription starts, so a restarted or reconnected service
 * forgets nothing it missed. Every fact only ever adds, so the order broadcasts and snapshot
 * pages arrive in is of no matter. Until the first snapshot is in, it refuses every token (503)
 * rather than accept a revoked one. A start while the broker is away reads the snapshot from the
 * accounts service over HTTP, so it serves as a service that lost the broker while running does.
 *
 * It guards client tokens only (the one kind these services accept), so each fact is forgotten
 * once every client token made before it has expired (`REVOCATION_RELEVANT_MS` after it): the
 * set holds about an hour of revocations, not every one ever made.
 */
export class RevocationSet {
  /** Each fact with the time it can be forgotten at. */
  private readonly clientKeys = new Map<string, number>();
  private readonly credentials = new Map<string, { version: number; forgetAt: number }>();
  private readonly users = new Map<string, number>();
  private loaded = false;
  private readonly loader: SnapshotLoader;
  private readonly clock: Clock;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: RevocationSetOptions) {
    this.clock = options.clock ?? systemClock;
    this.loader = new SnapshotLoader({ logger: options.logger, what: 'token revocations', load: () => this.load() });
  }

  async start(): Promise<void> {
    await this.options.bus.subscribe({
      name: `${this.options.service}.revocations`,
      bindings: ['revocation.*'],
      batchSize: 100,
      handle: async (messages) => {
        for (const message of messages) this.apply(message);
      },
      onSubscribed: () => this.loader.trigger(),
    });
    // Not connected (yet): the subscription catches up once it is; meanwhile read the snapshot over HTTP.
    if (this.options.accountsUrl && !this.busConnected()) this.loader.trigger();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  /** The guard's check: true for a revoked token; throws 503 until the set is loaded. */
  readonly isRevoked: RevocationCheck = (claims: TokenClaims) => {
    if (!this.loaded) return Promise.reject(new ServiceUnavailableError('token revocations are not loaded yet; try again shortly', 'NotReady'));
    // The set forgets facts once every client token they could match has expired: a longer-lived kind could outlive them.
    if (claims.kind !== REMOTELY_CHECKED_KIND)
      return Promise.reject(new Error(`the revocation set guards ${REMOTELY_CHECKED_KIND} tokens only, not ${claims.kind} tokens`));
    return Promise.resolve(
      this.users.has(claims.sub) ||
        claims.ver < (this.credentials.get(claims.sub)?.version ?? 0) ||
        (claims.cid !== undefined && this.clientKeys.has(claims.cid)),
    );
  };

  /**
   * The readiness probe: fails until the first snapshot is in. While the bus is away the set keeps
   * enforcing every revocation it has (all those older than the outage); those made meanwhile
   * arrive with the snapshot asked for first thing on reconnection (decision 020).
   */
  checkReady(): void {
    if (!this.loaded) throw new Error('token revocations are not loaded yet');
  }

  /** How many facts the set holds (deleted client keys, credentials versions, deleted users). */
  get size(): number {
    return this.clientKeys.size + this.credentials.size + this.users.size;
  }

  stop(): void {
    clearInterval(this.sweeper);
    void this.loader.stop();
  }

  /** Forgets every fact no live client token can match any more; also runs every minute. */
  sweep(): void {
    const now = this.clock();
    for (const [clientId, forgetAt] of this.clientKeys) if (forgetAt <= now) this.clientKeys.delete(clientId);
    for (const [userId, { forgetAt }] of this.credentials) if (forgetAt <= now) this.credentials.delete(userId);
    for (const [userId, forgetAt] of this.users) if (forgetAt <= now) this.users.delete(userId);
  }

  private async load(): Promise<void> {
    let after: string | undefined;
    do {
      const page = await this.snapshotPage({ ...(after === undefined ? {} : { after }), limit: this.options.pageSize ?? 1000 });
      this.merge(page);
      after = page.next ?? undefined;
    } while (after !== undefined);
    if (!this.loaded) this.options.logger.info('token revocations loaded', { facts: this.size });
    this.loaded = true;
  }

  private snapshotPage(request: RpcRequest<'revocations.snapshot'>): Promise<Snapshot> {
    const timeoutMs = this.options.snapshotTimeoutMs ?? 5000;
    const { accountsUrl } = this.options;
    if (!accountsUrl || this.busConnected()) return this.options.bus.request('revocations.snapshot', request, timeoutMs);
    return fetchSnapshotPage(accountsUrl, request, timeoutMs);
  }

  private busConnected(): boolean {
    try {
      this.options.bus.checkReady();
      return true;
    } catch {
      return false;
    }
  }

  private apply(message: AnyBusMessage): void {
    const forgetAt = Date.parse(message.occurredAt) + REVOCATION_RELEVANT_MS;
    switch (message.kind) {
      case 'revocation.client-key-deleted':
        keepLatest(this.clientKeys, message.payload.clientId, forgetAt);
        break;
      case 'revocation.credentials-changed':
        this.raiseCredentials(message.payload.userId, message.payload.credentialsVersion, forgetAt);
        break;
      case 'revocation.user-deleted':
        keepLatest(this.users, message.payload.userId, forgetAt);
        break;
      default:
        break;
    }
  }

  /**
   * Keeps the highest version, forgotten at the latest time any change asked for: tokens older
   * than a later change include those older than an earlier one.
   */
  private raiseCredentials(userId: string, version: number, forgetAt: number): void {
    const known = this.credentials.get(userId);
    this.credentials.set(userId, { version: Math.max(version, known?.version ?? 0), forgetAt: Math.max(forgetAt, known?.forgetAt ?? 0) });
  }

  private merge(page: Snapshot): void {
    const forgetAt = (page.latestAt === undefined ? this.clock() : Date.parse(page.latestAt)) + REVOCATION_RELEVANT_MS;
    for (const { clientId } of page.clientKeys) keepLatest(this.clientKeys, clientId, forgetAt);
    for (const { userId, credentialsVersion } of page.credentials) this.raiseCredentials(userId, credentialsVersion, forgetAt);
    for (const userId of page.users) keepLatest(this.users, userId, forgetAt);
  }
}

function keepLatest(facts: Map<string, number>, key: string, forgetAt: number): void {
  facts.set(key, Math.max(forgetAt, facts.get(key) ?? 0));
}

async function fetchSnapshotPage(accountsUrl: string, request: RpcRequest<'revocations.snapshot'>, timeoutMs: number): Promise<Snapshot> {
  const url = new URL('/internal/revocations', accountsUrl);
  if (request.after !== undefined) url.searchParams.set('after', request.after);
  if (request.limit !== undefined) url.searchParams.set('limit', String(request.limit));
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url.href} answered ${response.status}`);
  return rpcSchemas['revocations.snapshot'].reply.parse(await response.json());
}
