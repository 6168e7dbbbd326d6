import type { RevocationCheck, TokenClaims } from '@cloud/auth';
import { SnapshotLoader, type AnyBusMessage, type Bus, type RpcReply } from '@cloud/bus';
import { ServiceUnavailableError } from '@cloud/http';
import type { Logger } from '@cloud/logging';

export interface RevocationSetOptions {
  bus: Bus;
  logger: Logger;
  /** The service keeping the set; names its dead-letter queue. */
  service: string;
  /** How long to wait for the accounts service's snapshot before asking again. */
  snapshotTimeoutMs?: number;
}

type Snapshot = RpcReply<'revocations.snapshot'>;

/**
 * What a service that verifies tokens knows about revoked ones: deleted client keys, the lowest
 * credentials version still valid per user (a password change raises it), and deleted users.
 * Fed by the bus's `revocation.*` broadcasts, and filled from the accounts service's snapshot
 * each time the subscription starts, so a restarted or reconnected service forgets nothing it
 * missed. Every fact only ever adds, so the order broadcasts and snapshot arrive in is of no
 * matter. Until the first snapshot is in, it refuses every token (503) rather than accept a
 * revoked one.
 */
export class RevocationSet {
  private readonly clientKeys = new Set<string>();
  private readonly credentials = new Map<string, number>();
  private readonly users = new Set<string>();
  private loaded = false;
  private readonly loader: SnapshotLoader;

  constructor(private readonly options: RevocationSetOptions) {
    this.loader = new SnapshotLoader({
      logger: options.logger,
      what: 'token revocations',
      load: async () => {
        this.merge(await options.bus.request('revocations.snapshot', {}, options.snapshotTimeoutMs ?? 5000));
        if (!this.loaded) options.logger.info('token revocations loaded');
        this.loaded = true;
      },
    });
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
  }

  /** The guard's check: true for a revoked token; throws 503 until the set is loaded. */
  readonly isRevoked: RevocationCheck = (claims: TokenClaims) => {
    if (!this.loaded) return Promise.reject(new ServiceUnavailableError('token revocations are not loaded yet; try again shortly', 'NotReady'));
    return Promise.resolve(
      this.users.has(claims.sub) ||
        claims.ver < (this.credentials.get(claims.sub) ?? 0) ||
        (claims.cid !== undefined && this.clientKeys.has(claims.cid)),
    );
  };

  /**
   * The readiness probe: fails until the first snapshot is in, and while the bus is disconnected
   * (revocations sent meanwhile would not reach this set until it reconnects and resyncs).
   */
  checkReady(): void {
    if (!this.loaded) throw new Error('token revocations are not loaded yet');
    this.options.bus.checkReady();
  }

  stop(): void {
    void this.loader.stop();
  }

  private apply(message: AnyBusMessage): void {
    switch (message.kind) {
      case 'revocation.client-key-deleted':
        this.clientKeys.add(message.payload.clientId);
        break;
      case 'revocation.credentials-changed':
        this.raiseCredentials(message.payload.userId, message.payload.credentialsVersion);
        break;
      case 'revocation.user-deleted':
        this.users.add(message.payload.userId);
        break;
      default:
        break;
    }
  }

  private raiseCredentials(userId: string, version: number): void {
    if (version > (this.credentials.get(userId) ?? 0)) this.credentials.set(userId, version);
  }

  private merge(snapshot: Snapshot): void {
    for (const { clientId } of snapshot.clientKeys) this.clientKeys.add(clientId);
    for (const { userId, credentialsVersion } of snapshot.credentials) this.raiseCredentials(userId, credentialsVersion);
    for (const userId of snapshot.users) this.users.add(userId);
  }
}
