import { randomUUID } from 'node:crypto';
import type { Logger } from '@cloud/logging';
import type { DeliveriesRepository } from '../data-access/deliveries.repository';
import type { WebhookClient, WebhookOutcome } from '../data-access/webhook.client';
import { retryDelayMs } from './backoff';
import type { SecretBox } from './secret-box';
import { signatureHeader } from './signature';
import type { DeliveryAttemptView, DeliveryBody, SequencedEvent, StreamRecord } from './stream';
import type { TargetPolicy } from './targets';

export interface DeliverySettings {
  /** Most events in one POST. */
  batchEvents: number;
  /** Most bytes of one POST's body (a larger event goes alone). */
  batchBytes: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A batch failing this long is parked as dead letters. */
  retryForMs: number;
}

export interface StreamDeliveryDependencies {
  repository: DeliveriesRepository;
  client: WebhookClient;
  targets: TargetPolicy;
  secrets: SecretBox;
  now?: () => Date;
  settings: DeliverySettings;
  logger: Logger;
}

/**
 * Delivers a stream's pending events in seq order, a batch per POST, signed. The stream row
 * keeps the failure bookkeeping (attempts, since when, next try), so retries outlive restarts;
 * a batch failing for `retryForMs` is parked and the stream goes on.
 */
export class StreamDelivery {
  private readonly now: () => Date;

  constructor(private readonly deps: StreamDeliveryDependencies) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * One attempt at the next batch, when one is pending and its retry is due. `delivered` counts the
   * events the stream moved past (delivered or parked): 0 means come back at `stream.nextAttemptAt`
   * (a failure) or when more events are found.
   */
  async deliverDue(stream: StreamRecord): Promise<{ stream: StreamRecord; delivered: number }> {
    const now = this.now();
    if (stream.nextAttemptAt && stream.nextAttemptAt > now) return { stream, delivered: 0 };
    const { settings, repository } = this.deps;
    const batch = this.fit(stream, await repository.pending(stream.id, stream.deliveredSeq, settings.batchEvents));
    if (batch.length === 0) return { stream, delivered: 0 };
    const firstSeq = batch[0]!.seq;
    const lastSeq = batch.at(-1)!.seq;
    const attempt = stream.attempts + 1;
    const { deliveryId, outcome } = await this.send(stream, attempt, batch, now);
    const log = (kind: DeliveryAttemptView['outcome']) =>
      repository.record(stream.id, { deliveryId, attempt, firstSeq, lastSeq, events: batch.length, outcome: kind, ...outcome, at: now });
    if (outcome.error === null) {
      await log('delivered');
      return { stream: await repository.markDelivered(stream.id, firstSeq, lastSeq, now), delivered: batch.length };
    }
    const failingSince = stream.failingSince ?? now;
    if (now.getTime() - failingSince.getTime() >= settings.retryForMs) {
      await log('parked');
      this.deps.logger.warn('stream batch parked as dead letters', { streamId: stream.id, firstSeq, lastSeq, error: outcome.error });
      return { stream: await repository.park(stream.id, firstSeq, lastSeq, now), delivered: batch.length };
    }
    await log('failed');
    const nextAttemptAt = new Date(now.getTime() + retryDelayMs(attempt, settings.retryBaseMs, settings.retryMaxMs));
    const failed = await repository.recordFailure(stream.id, { attempts: attempt, failingSince, nextAttemptAt, lastError: outcome.error }, now);
    return { stream: failed, delivered: 0 };
  }

  /** A signed `test` event to the stream's URL now, outside its order, logged with outcome `test`. */
  async test(stream: StreamRecord): Promise<DeliveryAttemptView> {
    const at = this.now();
    const event: SequencedEvent = { id: `evt-${randomUUID()}`, type: 'test', message: 'a test delivery', seq: 0 };
    const { deliveryId, outcome } = await this.send(stream, 1, [event], at);
    const view: DeliveryAttemptView = { deliveryId, attempt: 1, firstSeq: null, lastSeq: null, events: 1, outcome: 'test', ...outcome, at };
    await this.deps.repository.record(stream.id, view);
    return view;
  }

  /** The longest prefix within the byte limit (at least one event). */
  private fit(stream: StreamRecord, events: SequencedEvent[]): SequencedEvent[] {
    let bytes = Buffer.byteLength(JSON.stringify(this.body(stream, 'dlv-00000000-0000-0000-0000-000000000000', 1_000_000, [])));
    let count = 0;
    for (const event of events) {
      bytes += Buffer.byteLength(JSON.stringify(event)) + 1;
      if (count > 0 && bytes > this.deps.settings.batchBytes) break;
      count += 1;
    }
    return events.slice(0, count);
  }

  private body(stream: StreamRecord, deliveryId: string, attempt: number, events: SequencedEvent[]): DeliveryBody {
    return { streamId: stream.id, nodeId: stream.nodeId, kind: stream.kind, deliveryId, attempt, events };
  }

  /** Checks the target (again at every attempt: DNS may have changed) and POSTs to the address checked. */
  private async send(stream: StreamRecord, attempt: number, events: SequencedEvent[], at: Date): Promise<{ deliveryId: string; outcome: WebhookOutcome }> {
    const deliveryId = `dlv-${randomUUID()}`;
    const body = JSON.stringify(this.body(stream, deliveryId, attempt, events));
    const started = performance.now();
    let target;
    try {
      target = await this.deps.targets.check(stream.url);
    } catch (refused) {
      return {
        deliveryId,
        outcome: { statusCode: null, latencyMs: Math.round(performance.now() - started), error: `refused target: ${(refused as Error).message}` },
      };
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'cloud-nodes-streams/1',
      'x-cloud-stream': stream.id,
      'x-cloud-delivery': deliveryId,
      'x-cloud-signature': signatureHeader(this.deps.secrets.open(stream.secretSealed, stream.id), body, at),
    };
    return { deliveryId, outcome: await this.deps.client.post(target, headers, body) };
  }
}
