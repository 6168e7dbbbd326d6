import { randomUUID } from 'node:crypto';
import type { NodeRoute } from '@cloud/bus';
import type { Database, Transaction } from '@cloud/db';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, ServiceUnavailableError } from '@cloud/http';
import type { StreamsRepository } from '../data-access/streams.repository';
import { familyOf, isFollowable, type FollowTarget, type StreamFamily, type Unfollowable } from './node-routes';
import { newSigningSecret, type SecretBox } from './secret-box';
import type { BlockRef, SequencedEvent, StreamKind, StreamRecord } from './stream';
import type { DeliveryAttemptView } from './stream';
import { attemptView, toStreamView, type StreamView } from './stream-view';

// The streams API's use cases. What they need from the delivery side (domain/targets.ts,
// domain/delivery.ts, data-access/deliveries.repository.ts) and from the matching side
// (domain/matching.ts) is named here by the narrow interfaces below, which those pieces fulfil.

/** Checks a webhook URL (`TargetPolicy.check`): rejects, with why, a URL the operator's policy refuses. */
export interface TargetChecker {
  check(url: string): Promise<unknown>;
}

/** A stream's deliveries: the test delivery (`StreamDelivery.test`) and its log, dead letters and queue (the deliveries repository). */
export interface StreamDeliveries {
  test(stream: StreamRecord): Promise<DeliveryAttemptView>;
  /** The last `limit` attempts, newest first. */
  log(streamId: string, limit: number): Promise<DeliveryAttemptView[]>;
  /** Parked events, oldest first, as they would be delivered. */
  deadLetters(streamId: string, limit: number): Promise<SequencedEvent[]>;
  counts(streamId: string): Promise<{ pending: number; dead: number }>;
  /** Puts every dead letter back at the end of the stream (new seqs, the same ids); how many. */
  replayDeadLetters(streamId: string): Promise<number>;
}

/** The address rules of `transactions` streams (domain/matching.ts): each throws InvalidInputError naming the bad value. */
export interface AddressRules {
  normalizeAddresses(family: StreamFamily, addresses: string[]): string[];
  normalizeTopics(topics: string[]): string[];
}

/** Tells the worker a stream changed (its state, URL, secret, or end), so it rereads it now rather than at its next lease renewal. */
export interface StreamWaker {
  refresh(streamId: string): void;
}

/** The nodes and pools as the nodes service announces them (NodeRoutes), and whether they are loaded yet. */
export interface NodeRouteLookup {
  get(nodeId: string): NodeRoute | undefined;
  followTarget(nodeId: string): FollowTarget | Unfollowable;
  loaded(): boolean;
}

/** Reads a node's head (the follow side's HeadWatcher). */
export interface HeadReader {
  headOf(target: FollowTarget): Promise<BlockRef>;
}

export interface StreamsServiceDependencies {
  db: Database;
  streams: StreamsRepository;
  routes: NodeRouteLookup;
  heads: HeadReader;
  targets: TargetChecker;
  deliveries: StreamDeliveries;
  addressRules: AddressRules;
  secrets: SecretBox;
  waker: StreamWaker;
  now?: () => Date;
  limits: { maxStreamsPerUser: number; maxAddresses: number; maxBackfillBlocks: number };
}

export interface CreateStreamRequest {
  nodeId: string;
  name?: string | undefined;
  kind: StreamKind;
  url: string;
  addresses?: string[] | undefined;
  topics?: string[] | undefined;
  fromHeight?: number | null | undefined;
}

const streamNotFound = (id: string) => new NotFoundError(`no stream ${id} of yours`);

/**
 * A user's streams: creating one checks its node, URL and addresses and gives it a signing secret
 * (sealed at rest, shown once); every change tells the worker, which scans and delivers.
 */
export class StreamsService {
  private readonly now: () => Date;

  constructor(private readonly deps: StreamsServiceDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  async create(userId: string, request: CreateStreamRequest): Promise<StreamView> {
    const { db, streams, secrets, limits } = this.deps;
    const family = this.followable(userId, request.nodeId);
    const { addresses, topics } = this.watched(family, request);
    await this.checkTarget(request.url);
    if (request.fromHeight !== undefined && request.fromHeight !== null) await this.checkBackfill(request.nodeId, request.fromHeight);
    const id = `stream-${randomUUID()}`;
    const secret = newSigningSecret();
    const created = await db.transaction(async (trx) => {
      await streams.lockUser(trx, userId);
      if ((await streams.countLive(trx, userId)) >= limits.maxStreamsPerUser) {
        throw new ForbiddenError(`you have ${limits.maxStreamsPerUser} streams, the most allowed; delete one first`, 'LimitExceeded');
      }
      return streams.insert(trx, {
        id,
        userId,
        nodeId: request.nodeId,
        name: request.name ?? `${request.kind} of ${request.nodeId}`,
        kind: request.kind,
        url: request.url,
        addresses,
        topics,
        secretSealed: secrets.seal(secret, id),
        fromHeight: request.fromHeight ?? null,
        at: this.now(),
      });
    });
    this.deps.waker.refresh(id);
    return this.view(created, secret);
  }

  /** The user's streams, oldest first. */
  async list(userId: string): Promise<StreamView[]> {
    return Promise.all((await this.deps.streams.listVisible(userId)).map((stream) => this.view(stream)));
  }

  async get(userId: string, id: string): Promise<StreamView> {
    return this.view(await this.visible(userId, id));
  }

  /** Renames the stream or points it at another URL (checked as at creation); pending events go to the new URL. */
  async update(userId: string, id: string, change: { name?: string | undefined; url?: string | undefined }): Promise<StreamView> {
    if (change.url !== undefined) await this.checkTarget(change.url);
    const fields = { ...(change.name === undefined ? {} : { name: change.name }), ...(change.url === undefined ? {} : { url: change.url }) };
    return this.view(await this.change(userId, id, (trx) => this.deps.streams.update(trx, id, fields, this.now())));
  }

  /** Stops scanning and delivering; resuming goes on where it stopped, nothing skipped. */
  async pause(userId: string, id: string): Promise<StreamView> {
    const paused = await this.change(userId, id, (trx, stream) => {
      if (stream.state === 'paused') throw new ConflictError(`stream ${id} is already paused`);
      return this.deps.streams.setState(trx, id, 'paused', this.now());
    });
    return this.view(paused);
  }

  /** Goes on where it stopped; a batch waiting for its retry is tried at once. */
  async resume(userId: string, id: string): Promise<StreamView> {
    const resumed = await this.change(userId, id, (trx, stream) => {
      if (stream.state === 'active') throw new ConflictError(`stream ${id} is not paused`);
      return this.deps.streams.setState(trx, id, 'active', this.now());
    });
    return this.view(resumed);
  }

  /** A new signing secret, in this answer only; deliveries from now on are signed with it. */
  async rotateSecret(userId: string, id: string): Promise<StreamView> {
    const secret = newSigningSecret();
    const sealed = this.deps.secrets.seal(secret, id);
    return this.view(await this.change(userId, id, (trx) => this.deps.streams.replaceSecret(trx, id, sealed, this.now())), secret);
  }

  /** Sends a `test` event to the stream's URL now, outside its order, and answers the attempt. */
  async test(userId: string, id: string) {
    return attemptView(await this.deps.deliveries.test(await this.visible(userId, id)));
  }

  /** The last `limit` delivery attempts, newest first. */
  async deliveries(userId: string, id: string, limit: number) {
    await this.visible(userId, id);
    return (await this.deps.deliveries.log(id, limit)).map(attemptView);
  }

  /** Events parked after failing for the retry period, oldest first. */
  async deadLetters(userId: string, id: string, limit: number): Promise<SequencedEvent[]> {
    await this.visible(userId, id);
    return this.deps.deliveries.deadLetters(id, limit);
  }

  /** Delivers the dead letters again, after what is pending, with their ids. */
  async replay(userId: string, id: string): Promise<{ replayed: number }> {
    await this.visible(userId, id);
    const replayed = await this.deps.deliveries.replayDeadLetters(id);
    this.deps.waker.refresh(id);
    return { replayed };
  }

  /** Ends the stream at once: nothing more is scanned or delivered. */
  async delete(userId: string, id: string): Promise<{ id: string; deleted: true }> {
    await this.change(userId, id, (trx) => this.deps.streams.markDeleted(trx, id, 'deleted', this.now()));
    return { id, deleted: true };
  }

  /** Ends the streams of a deleted node or pool (`node.deleted`, `pool.deleted`). */
  async endAllOfNode(nodeId: string, reason: 'node deleted' | 'pool deleted'): Promise<void> {
    this.refreshAll(await this.deps.streams.endAllOfNode(nodeId, reason, this.now()));
  }

  /** Ends a deleted user's streams (`revocation.user-deleted`). */
  async endAllOfUser(userId: string): Promise<void> {
    this.refreshAll(await this.deps.streams.endAllOfUser(userId, this.now()));
  }

  /** The family of the caller's node or pool, which a stream may follow. */
  private followable(userId: string, nodeId: string): StreamFamily {
    const { routes } = this.deps;
    // Until the nodes are loaded, an unknown node may just not be loaded yet.
    if (!routes.loaded()) throw new ServiceUnavailableError('the nodes are still being loaded; try again in a few seconds');
    const route = routes.get(nodeId);
    const what = nodeId.startsWith('pool-') ? 'pool' : 'node';
    if (!route || route.userId !== userId) throw new InvalidInputError(`body.nodeId: no ${what} ${nodeId} of yours`);
    if (route.state === 'deleting' || route.state === 'deleted') throw new InvalidInputError(`body.nodeId: ${what} ${nodeId} is being deleted`);
    const family = familyOf(route);
    if (!family) throw new InvalidInputError(`body.nodeId: streams follow Ethereum- and Bitcoin-family nodes; ${nodeId} is ${route.image}`);
    return family;
  }

  private watched(family: StreamFamily, request: CreateStreamRequest): { addresses: string[]; topics: string[] } {
    const addresses = request.addresses ?? [];
    const topics = request.topics ?? [];
    if (request.kind === 'blocks') {
      if (addresses.length > 0 || topics.length > 0) throw new InvalidInputError('body.addresses: a blocks stream takes no addresses or topics');
      return { addresses, topics };
    }
    if (addresses.length === 0) throw new InvalidInputError('body.addresses: a transactions stream needs at least one address to watch');
    if (addresses.length > this.deps.limits.maxAddresses) {
      throw new InvalidInputError(`body.addresses: at most ${this.deps.limits.maxAddresses} addresses per stream`);
    }
    if (family !== 'ethereum' && topics.length > 0) throw new InvalidInputError('body.topics: log topics are for Ethereum-family nodes only');
    const { addressRules } = this.deps;
    return { addresses: addressRules.normalizeAddresses(family, addresses), topics: addressRules.normalizeTopics(topics) };
  }

  /** A backfill starts at most maxBackfillBlocks below the node's head now, and not above it. */
  private async checkBackfill(nodeId: string, fromHeight: number): Promise<void> {
    const target = this.deps.routes.followTarget(nodeId);
    const unreadable = (reason: string) =>
      new ConflictError(`body.fromHeight: the head of ${nodeId} cannot be read now (${reason}); backfill once it runs, or start from the head (no fromHeight)`);
    if (!isFollowable(target)) throw unreadable(target.reason);
    const head = await this.deps.heads.headOf(target).catch((error: unknown) => {
      throw unreadable((error as Error).message);
    });
    const { maxBackfillBlocks } = this.deps.limits;
    if (fromHeight > head.height) throw new InvalidInputError(`body.fromHeight: ${fromHeight} is above the head of ${nodeId} (${head.height})`);
    if (head.height - fromHeight > maxBackfillBlocks) {
      throw new InvalidInputError(
        `body.fromHeight: at most ${maxBackfillBlocks} blocks below the head (${head.height}): from ${Math.max(0, head.height - maxBackfillBlocks)} on`,
      );
    }
  }

  private async checkTarget(url: string): Promise<void> {
    try {
      await this.deps.targets.check(url);
    } catch (error) {
      // The policy's refusal (or a name that does not resolve) says why in its message.
      throw new InvalidInputError(`body.url: ${(error as Error).message}`);
    }
  }

  private async visible(userId: string, id: string): Promise<StreamRecord> {
    const stream = await this.deps.streams.findVisible(userId, id);
    if (!stream) throw streamNotFound(id);
    return stream;
  }

  /** Locks the user's stream, applies `write` (which may refuse), tells the worker, and answers the fresh record. */
  private async change(
    userId: string,
    id: string,
    write: (trx: Transaction, stream: StreamRecord) => Promise<StreamRecord | undefined>,
  ): Promise<StreamRecord> {
    const changed = await this.deps.db.transaction(async (trx) => {
      const stream = await this.deps.streams.findVisibleForUpdate(trx, userId, id);
      if (!stream) throw streamNotFound(id);
      const written = await write(trx, stream);
      if (!written) throw streamNotFound(id);
      return written;
    });
    this.deps.waker.refresh(id);
    return changed;
  }

  private refreshAll(ids: string[]): void {
    for (const id of ids) this.deps.waker.refresh(id);
  }

  private async view(stream: StreamRecord, secret?: string): Promise<StreamView> {
    const { deliveries } = this.deps;
    const [counts, [lastDelivery]] = await Promise.all([deliveries.counts(stream.id), deliveries.log(stream.id, 1)]);
    return toStreamView(stream, { counts, lastDelivery }, secret);
  }
}
